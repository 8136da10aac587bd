/** The OpenAPI path items of the workspace pickers (routes.ts), merged by api/openapi/document.ts. */
import { component, jsonResponse, queryParameters, type PathItems } from '../openapi/parts.js';
import { commonErrors, errorAnswer } from '../openapi/answers.js';
import { DirectoriesQuerySchema, DirectoryListSchema, SkillListSchema } from './schemas.js';
import { MAX_LISTED_DIRECTORIES } from './directories.js';

const SkillList = component('SkillList', SkillListSchema);
const DirectoryList = component('DirectoryList', DirectoryListSchema);

const ADMIN = 'With auth: needs the `admin` role (else 403 `forbidden`).';

export const workspacePaths: PathItems = {
  '/workspace/skills': {
    get: {
      summary: 'The skills a definition may name, by name, with their layer and location',
      description: `Layered discovery as resolution runs it (workspace, ecosystem workspace, system, ecosystem user, plugins; the first layer wins a name). Skipped and shadowed SKILL.md files are \`diagnostics\`. ${ADMIN}`,
      responses: { '200': jsonResponse(SkillList, 'The skills'), ...commonErrors },
    },
  },
  '/workspace/directories': {
    get: {
      summary: "One workspace directory's subdirectories, for the knowledge source picker",
      description: `Directories only, sorted by name, at most ${MAX_LISTED_DIRECTORIES} (\`truncated\` says when there are more). deputy's data directory and \`.git\` are left out; a symbolic link is listed when it leads to a directory inside the workspace. ${ADMIN}`,
      parameters: queryParameters(DirectoriesQuerySchema, {
        path: "Workspace-relative directory; '' or absent: the workspace root",
      }),
      responses: {
        ...commonErrors,
        '200': jsonResponse(DirectoryList, 'The subdirectories'),
        '404': errorAnswer('`not_found`: no such directory, or a file'),
        '422': errorAnswer(
          '`invalid_request`: an absolute path, one that leaves the workspace (`..`, a symbolic link), a NUL byte, or a hidden directory',
        ),
      },
    },
  },
};
