// An MCP "server" that starts and never answers: it reads stdin and stays alive.
process.stdin.resume();
setInterval(() => {}, 60_000);
