/**
 * What the pickers offer, each from the API's own list: tools (as this caller's roles see them),
 * MCP servers, models, skills. Each loads on its own; one that fails says so in its section and
 * leaves the others (and the page) working.
 */
import { useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import {
  listMcpServers,
  listModels,
  listSkills,
  listTools,
  type McpServerList,
  type SkillList,
} from '../../api/editor';
import type { ModelCatalog, ToolCatalog } from '../../api/types';

export type Loaded<T> =
  { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; problem: string };

export interface Catalogs {
  tools: Loaded<ToolCatalog>;
  mcp: Loaded<McpServerList>;
  models: Loaded<ModelCatalog>;
  skills: Loaded<SkillList>;
}

const LOADING = { state: 'loading' } as const;

export function useCatalogs(generation: number): Catalogs {
  const [tools, setTools] = useState<Loaded<ToolCatalog>>(LOADING);
  const [mcp, setMcp] = useState<Loaded<McpServerList>>(LOADING);
  const [models, setModels] = useState<Loaded<ModelCatalog>>(LOADING);
  const [skills, setSkills] = useState<Loaded<SkillList>>(LOADING);

  useEffect(() => {
    let live = true;
    const load = <T>(call: () => Promise<T>, set: (loaded: Loaded<T>) => void): void => {
      call()
        .then((value) => live && set({ state: 'ready', value }))
        .catch((error: unknown) => live && set({ state: 'failed', problem: messageOf(error) }));
    };
    load(listTools, setTools);
    load(listMcpServers, setMcp);
    load(listModels, setModels);
    load(listSkills, setSkills);
    return () => {
      live = false;
    };
  }, [generation]);

  return { tools, mcp, models, skills };
}
