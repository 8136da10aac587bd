/**
 * Largest task, in UTF-8 bytes: 64 KiB, at every door (the API, the MCP door). A task travels in
 * the workflow input, the first prompt and every continue-as-new; far larger ones belong in a
 * workspace file the task names.
 */
export const MAX_TASK_BYTES = 64 * 1024;
