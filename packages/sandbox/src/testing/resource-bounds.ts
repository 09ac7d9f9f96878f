/**
 * Hostile cases for the sandbox-wide bounds: memory that RLIMIT_DATA does not
 * see (shared memory, memfd, a RAM-backed `/tmp`) and the disk quota (a
 * single-file filler, a many-files filler, file-API writes past it). A bound
 * the implementation declares unenforced is checked to be documented instead;
 * one neither claimed nor declared is shown as skipped, by name.
 */
import { readFile } from "node:fs/promises";
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";
import type { UnenforcedBound } from "./options.js";

const MiB = 1024 * 1024;

/** What a notice about the memory bound must mention. */
const MEMORY_WORDS = /memory|out of memory|oom/i;
/** What a notice about the disk quota may say (a kernel quota says "Disk quota exceeded", a full volume "No space left"). */
const DISK_WORDS = /quota|no space left/i;

/**
 * Fills `bytes` of memfd, by python3 or perl (whichever the sandbox has), in
 * memfds of `perFileMiB` each (RLIMIT_FSIZE applies to a memfd's size); exits
 * 99 when it has neither. Prints `filled` when it got through.
 */
function memfdFiller(bytes: number, perFileMiB: number): string {
  const files = Math.ceil(bytes / MiB / perFileMiB);
  const python = `import os\nfds = []\nchunk = bytes(1 << 20)\nfor _ in range(${files}):\n  fd = os.memfd_create("kit-fill")\n  fds.append(fd)\n  for _ in range(${perFileMiB}): os.write(fd, chunk)\nprint("filled")`;
  const perl = `my %nr = (x86_64 => 319, aarch64 => 279); my $a = qx(uname -m); chomp $a; my $c = "\\0" x 1048576; my @keep; for (1..${files}) { my $fd = syscall($nr{$a}, "kit-fill", 0); die "memfd_create failed" if $fd < 0; open(my $fh, ">&=", $fd) or die; push @keep, $fh; for (1..${perFileMiB}) { syswrite($fh, $c) == 1048576 or die "write failed" } } print "filled\\n";`;
  return `if command -v python3 >/dev/null 2>&1; then python3 -c ${shellQuote(python)}; elif command -v perl >/dev/null 2>&1; then perl -e ${shellQuote(perl)}; else echo "the memfd check needs python3 or perl in the sandbox" >&2; exit 99; fi`;
}

/**
 * A command writing `bytes` of zeros as `<prefix><n>` files of at most
 * `chunk` bytes each (a file-size limit below the bound must not be what
 * stops it). It stops at the first failed write and prints `wrote-all` only
 * when everything landed.
 */
function chunkedFill(prefix: string, bytes: number, chunk: number): string {
  const whole = Math.floor(bytes / chunk);
  const rest = bytes - whole * chunk;
  return `i=0; while [ $i -lt ${whole} ]; do head -c ${chunk} /dev/zero > ${prefix}$i || exit 1; i=$((i+1)); done; head -c ${rest} /dev/zero > ${prefix}rest || exit 1; echo wrote-all`;
}

/** Registers the resource-bound checks. */
export function resourceBoundTests(kit: Kit): void {
  const { expect } = kit;
  const { memoryBytes, diskBytes, fileSizeBytes } = kit.options.resourceLimits;
  const { memory: memoryUnenforced, disk: diskUnenforced } = kit.options.unenforcedBounds;

  documentedGap(kit, "memory", memoryBytes === undefined, memoryUnenforced, "resourceLimits.memoryBytes");
  documentedGap(kit, "disk quota", diskBytes === undefined, diskUnenforced, "resourceLimits.diskBytes");

  const memory = memoryBytes ?? 0;
  // Past the bound by a margin, so page rounding and the shell itself cannot make it fit.
  const memoryAttempt = memory + 64 * MiB;
  // In files below any file-size limit (it applies to tmpfs and memfd files too).
  const memoryChunk = Math.max(MiB, Math.min(64 * MiB, (fileSizeBytes ?? Number.POSITIVE_INFINITY) - 1));

  kit.testIf(
    memoryBytes !== undefined,
    `kills a command filling shared memory (/dev/shm) past ${memoryBytes ?? "the memory bound's"} bytes and says it was memory`,
    async () => {
      try {
        const result = await kit
          .sandbox()
          .execute(chunkedFill("/dev/shm/kit-fill-", memoryAttempt, memoryChunk), { timeoutMs: kit.ms(120_000) });
        expect(result.stdout).not.toContain("wrote-all");
        expect(result.stderr).toMatch(MEMORY_WORDS);
      } finally {
        await kit.sandbox().execute("rm -f /dev/shm/kit-fill-*");
      }
      expectSuccess(kit, await kit.sandbox().execute("echo alive"));
    },
    180_000,
  );

  kit.testIf(
    memoryBytes !== undefined,
    `kills a command whose memfd pages cross ${memoryBytes ?? "the memory bound's"} bytes (RLIMIT_DATA does not count them)`,
    async () => {
      const perFileMiB = Math.max(1, Math.min(64, Math.floor(((fileSizeBytes ?? Number.POSITIVE_INFINITY) - 1) / MiB)));
      const result = await kit
        .sandbox()
        .execute(memfdFiller(memoryAttempt, perFileMiB), { timeoutMs: kit.ms(120_000) });
      expect(result.exitCode, result.stderr).not.toBe(99);
      expect(result.stdout).not.toContain("filled");
      expect(result.stderr).toMatch(MEMORY_WORDS);
      expectSuccess(kit, await kit.sandbox().execute("echo alive"));
    },
    180_000,
  );

  kit.testIf(
    memoryBytes !== undefined,
    "does not let /tmp hold more than the memory bound",
    async () => {
      try {
        const result = await kit
          .sandbox()
          .execute(chunkedFill("/tmp/kit-fill-", memoryAttempt, memoryChunk), { timeoutMs: kit.ms(120_000) });
        // Stopped by /tmp's own size cap or killed for memory: either way it did not all land.
        expect(result.stdout).not.toContain("wrote-all");
      } finally {
        await kit.sandbox().execute("rm -f /tmp/kit-fill-*");
      }
      expectSuccess(kit, await kit.sandbox().execute("echo alive"));
    },
    180_000,
  );

  const disk = diskBytes ?? 0;
  // Files stay below any file-size limit, so only the quota can stop the writes.
  const chunk = Math.max(1, Math.min(8 * MiB, (fileSizeBytes ?? Number.POSITIVE_INFINITY) - 1));
  const crossing = Math.max(2, Math.min(16 * MiB, (fileSizeBytes ?? Number.POSITIVE_INFINITY) - 1, disk));

  kit.testIf(
    diskBytes !== undefined,
    `refuses a file-API write past the ${diskBytes === undefined ? "" : `${diskBytes}-byte `}disk quota with QUOTA_EXCEEDED and keeps earlier files`,
    async () => {
      const dir = kit.dir("quota-writes");
      await kit.sandbox().writeFile(`${dir}/keep.txt`, "precious\n");
      try {
        // Most of the quota by a command (cheap for remote sandboxes), the rest by the file API.
        expectSuccess(
          kit,
          await kit.sandbox().execute(chunkedFill("prefill-", Math.max(0, disk - 2 * MiB), chunk), {
            cwd: dir,
            timeoutMs: kit.ms(120_000),
          }),
        );
        const err = await expectSandboxError(
          kit,
          kit.sandbox().writeBytes(`${dir}/over.bin`, new Uint8Array(3 * MiB)),
          "QUOTA_EXCEEDED",
        );
        expect(err.message).toMatch(DISK_WORDS);
        await expectSandboxError(kit, kit.sandbox().readFile(`${dir}/over.bin`), "NOT_FOUND");
        await kit.sandbox().writeBytes(`${dir}/fits.bin`, new Uint8Array(256 * 1024));
        expect(await kit.sandbox().readFile(`${dir}/keep.txt`)).toBe("precious\n");
      } finally {
        await kit.sandbox().execute(`rm -rf ${shellQuote(dir)}`);
      }
    },
    120_000,
  );

  kit.testIf(
    diskBytes !== undefined,
    `cuts a disk filler at the ${diskBytes === undefined ? "" : `${diskBytes}-byte `}quota, says so, and keeps earlier files`,
    async () => {
      const dir = kit.dir("quota-filler");
      await kit.sandbox().writeFile(`${dir}/keep.txt`, "precious\n");
      try {
        // About half of the crossing file still fits (the kit's own small files aside): the rest must not land.
        const left = Math.floor(crossing / 2);
        const slack = 64 * 1024;
        expectSuccess(
          kit,
          await kit.sandbox().execute(chunkedFill("prefill-", Math.max(0, disk - left - slack), chunk), {
            cwd: dir,
            timeoutMs: kit.ms(120_000),
          }),
        );
        const result = await kit
          .sandbox()
          .execute(`head -c ${crossing} /dev/zero > fill.bin; echo rc=$?`, { cwd: dir, timeoutMs: kit.ms(120_000) });
        expect(result.timedOut).toBe(false);
        expect(result.stdout).not.toBe("rc=0\n");
        expect(result.stderr).toMatch(DISK_WORDS);
        const size = Number(
          expectSuccess(kit, await kit.sandbox().execute("stat -c %s fill.bin", { cwd: dir })).stdout.trim(),
        );
        expect(size).toBeLessThanOrEqual(left + slack + 1);
        expect(await kit.sandbox().readFile(`${dir}/keep.txt`)).toBe("precious\n");
      } finally {
        await kit.sandbox().execute(`rm -rf ${shellQuote(dir)}`);
      }
    },
    180_000,
  );

  kit.testIf(
    diskBytes !== undefined,
    "stops a command that keeps writing small files past the disk quota",
    async () => {
      const dir = kit.dir("quota-many");
      await kit.sandbox().writeFile(`${dir}/keep.txt`, "precious\n");
      try {
        const result = await kit
          .sandbox()
          .execute("i=0; while head -c 262144 /dev/zero > f$i; do i=$((i+1)); done; echo ended-at=$i", {
            cwd: dir,
            timeoutMs: kit.ms(120_000),
          });
        expect(result.timedOut).toBe(false);
        expect(result.stderr).toMatch(DISK_WORDS);
        expect(await kit.sandbox().readFile(`${dir}/keep.txt`)).toBe("precious\n");
      } finally {
        await kit.sandbox().execute(`rm -rf ${shellQuote(dir)}`);
      }
      // Room again once the files are gone.
      const after = kit.dir("quota-after");
      await kit.sandbox().writeFile(`${after}/ok.txt`, "ok");
      await kit.sandbox().execute(`rm -rf ${shellQuote(after)}`);
    },
    180_000,
  );
}

/**
 * A bound neither claimed nor declared shows as skipped by name; a declared
 * one is checked to be documented.
 */
function documentedGap(
  kit: Kit,
  bound: string,
  unclaimed: boolean,
  declaration: UnenforcedBound | undefined,
  claim: string,
): void {
  if (declaration !== undefined) {
    kit.test(
      `${bound} bound declared unenforced: the documentation says so ("${declaration.reason.slice(0, 60)}")`,
      async () => {
        const text = await readFile(declaration.documentedIn, "utf8").catch(() => undefined);
        kit.expect(text, `${declaration.documentedIn} cannot be read`).toBeDefined();
        const squash = (s: string): string => s.replace(/\s+/g, " ").trim();
        kit
          .expect(
            squash(text as string).includes(squash(declaration.reason)),
            `the document does not contain the declared reason`,
          )
          .toBe(true);
      },
    );
    return;
  }
  if (unclaimed)
    kit.testIf(
      false,
      `${bound} bound: NOT CHECKED — claim ${claim}, or declare it in unenforcedBounds with where it is documented`,
      async () => {},
    );
}
