// An MCP server that takes a while to start: it waits, then runs the server whose entry file is
// its first argument (the remaining arguments are that server's). Input sent meanwhile stays in the pipe.
import { pathToFileURL } from "node:url";

const [entry] = process.argv.splice(2, 1);
const delayMs = Number(process.env["SLOW_START_MS"] ?? 2500);
setTimeout(() => void import(pathToFileURL(entry).href), delayMs);
