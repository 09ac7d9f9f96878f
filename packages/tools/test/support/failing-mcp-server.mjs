// An MCP "server" that fails to start: it exits before answering initialize.
process.stderr.write("failing-mcp-server: cannot start (on purpose)\n");
process.exit(3);
