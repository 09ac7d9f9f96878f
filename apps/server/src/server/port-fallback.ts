/**
 * `npm start` should just work: when the server would listen on the default
 * port and something else holds it (another LangGraph dev server on 2024, say),
 * the next free port is used instead and the log says so. A port chosen on the
 * command line or in config.yaml is never changed.
 */
import net from "node:net";

/** How many ports after the default are tried. */
export const PORT_FALLBACK_SPAN = 20;

/** True when nothing listens on host:port (checked by binding it briefly). */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first free port in [port, port + span], or `port` itself when none is (listen then reports the error). */
export async function firstFreePort(host: string, port: number, span = PORT_FALLBACK_SPAN): Promise<number> {
  for (let candidate = port; candidate <= Math.min(port + span, 65_535); candidate++) {
    if (await isPortFree(host, candidate)) return candidate;
  }
  return port;
}
