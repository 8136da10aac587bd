/** Entry of the `deputy` command (bin/deputy.mjs, `npm start`, `npm run deputy`). */
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2));
// Exit explicitly: a lingering gRPC channel or timer must not keep a finished command alive.
process.exit(code);
