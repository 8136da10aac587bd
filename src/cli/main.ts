/** Entry of the `deputy` command (bin/deputy.mjs, `npm start`, `npm run deputy`). */
const args = process.argv.slice(2);
// `--version` alone answers before the command tree (and what it imports) is loaded.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../version.js');
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
const { runCli } = await import('./program.js');
const code = await runCli(args);
// Exit explicitly: a lingering gRPC channel or timer must not keep a finished command alive.
process.exit(code);
