/**
 * The attacker's half of the swapped-parent race: a shell command that, run
 * inside a sandbox, exchanges folders with symlinks in a tight loop
 * (`renameat2(RENAME_EXCHANGE)`, so each name is always either the folder or
 * the link, never missing) until a `stop` file appears. It is what a hostile
 * `bash` call does while the same assistant turn issues `write_file` calls
 * below those folders. Shared by the conformance kit and this package's race
 * tests.
 */
import { shellQuote } from "./context.js";

/** Files the loop reads and writes in its working directory. */
export const SWAP_FILES = {
  /** Created once the loop runs. */
  started: "swap-started",
  /** Create it to end the loop. */
  stop: "swap-stop",
  /** Written at the end: the number of exchanges made, and how they were made (`atomic` or `mv`). */
  count: "swap-count",
} as const;

/** One folder and the symlink it is exchanged with (names relative to the working directory). */
export interface SwapPair {
  readonly dir: string;
  readonly link: string;
}

// renameat2 is syscall 316 on x86_64 and 276 on the generic table (arm64, riscv64, loongarch64).
const PERL_LOOP = String.raw`
my ($nr, @names) = @ARGV;
sub swap { syscall($nr, -100, $_[0], -100, $_[1], 2) == 0 or die "renameat2: $!\n" }
my $n = 0;
open(my $f, ">", "${SWAP_FILES.started}") or die; close($f);
until (-e "${SWAP_FILES.stop}") {
  for (1 .. 64) { for (my $i = 0; $i < @names; $i += 2) { swap($names[$i], $names[$i + 1]); $n++ } }
}
for (my $i = 0; $i < @names; $i += 2) { swap($names[$i], $names[$i + 1]) if -l $names[$i] }
open($f, ">", "${SWAP_FILES.count}") or die; print $f "$n atomic"; close($f);
`;

const PYTHON_LOOP = String.raw`
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
names = [n.encode() for n in sys.argv[1:]]
def swap(a, b):
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")
n = 0
open("${SWAP_FILES.started}", "w").close()
while not os.path.exists("${SWAP_FILES.stop}"):
    for _ in range(64):
        for i in range(0, len(names), 2):
            swap(names[i], names[i + 1]); n += 1
for i in range(0, len(names), 2):
    if os.path.islink(names[i]): swap(names[i], names[i + 1])
open("${SWAP_FILES.count}", "w").write("%d atomic" % n)
`;

/**
 * Builds the loop. Each pair's folder and link must exist in the working
 * directory before it starts. It prefers an atomic exchange (perl's `syscall`
 * or python3's ctypes) and falls back to `mv`/`ln` (a slower swap with a
 * short window where the name is missing) where neither exists. When it ends,
 * every folder is back under its own name.
 *
 * @param pairs - Folders and the links they trade places with.
 * @returns A command for `sh -c` (what `Sandbox.execute` runs).
 * @example
 * await sandbox.execute(swapLoopCommand([{ dir: "d", link: "l" }]), { cwd, timeoutMs: 60_000 });
 */
export function swapLoopCommand(pairs: readonly SwapPair[]): string {
  const names = pairs
    .flatMap((p) => [p.dir, p.link])
    .map(shellQuote)
    .join(" ");
  const fallback = pairs
    .map(
      (p) =>
        `mv ${shellQuote(p.dir)} .swap-tmp && mv ${shellQuote(p.link)} ${shellQuote(p.dir)} && mv .swap-tmp ${shellQuote(p.link)}`,
    )
    .join(" && ");
  return [
    `case "$(uname -m)" in x86_64) nr=316;; aarch64|arm64|riscv64|loongarch64) nr=276;; *) nr=;; esac`,
    `if [ -n "$nr" ] && command -v perl >/dev/null 2>&1; then exec perl -e ${shellQuote(PERL_LOOP)} "$nr" ${names}; fi`,
    `if command -v python3 >/dev/null 2>&1; then exec python3 -c ${shellQuote(PYTHON_LOOP)} ${names}; fi`,
    `: > ${SWAP_FILES.started}; n=0`,
    // The fallback's exchange is two steps, so the folder (not the link) always ends under its own name on an even count.
    `while [ ! -e ${SWAP_FILES.stop} ]; do ${fallback} || exit 1; n=$((n+1)); done`,
    `if [ $((n % 2)) = 1 ]; then ${fallback}; fi`,
    `echo "$n mv" > ${SWAP_FILES.count}`,
  ].join("\n");
}
