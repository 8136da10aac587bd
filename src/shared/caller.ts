/** Who started a delegation. `id: null` means auth is disabled: no role filtering applies. */
export interface Caller {
  id: string | null;
  roles: string[];
}

export const ADMIN_ROLE = 'admin';

export const ANONYMOUS_CALLER: Caller = { id: null, roles: [] };
