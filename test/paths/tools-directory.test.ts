/**
 * Where deputy's tools live: one folder per user (its cache), not per project or per install, and
 * the trusted-files list protects exactly that folder.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolsDirectoryOf } from '../../src/paths/tools-directory.js';
import { trustedLocations, type TrustedConfig } from '../../src/paths/trusted-files.js';

const home = '/home/someone';
const config: TrustedConfig = {
  workspace: '/projects/app',
  dataDir: '/projects/app/.deputy',
  userDir: `${home}/.config/deputy`,
  projectRoot: '/projects/app/node_modules/deputy',
  skills: { pluginDirs: [] },
};

function trustedToolsDirectory(env: NodeJS.ProcessEnv): string | undefined {
  return trustedLocations(config, { homeDir: home, env }).find((location) =>
    location.role.startsWith('programs deputy runs'),
  )?.path;
}

describe('tools directory', () => {
  it("defaults to the user's cache, whatever project or install deputy runs from", () => {
    expect(toolsDirectoryOf({}, home)).toBe(`${home}/.cache/deputy/tools`);
    expect(toolsDirectoryOf({ XDG_CACHE_HOME: '/var/cache/someone' }, home)).toBe(
      '/var/cache/someone/deputy/tools',
    );
    // The XDG specification: a relative value is invalid and ignored, blank as if unset.
    expect(toolsDirectoryOf({ XDG_CACHE_HOME: 'cache' }, home)).toBe(`${home}/.cache/deputy/tools`);
    expect(toolsDirectoryOf({ XDG_CACHE_HOME: '  ' }, home)).toBe(`${home}/.cache/deputy/tools`);
  });

  it('DEPUTY_TOOLS_DIR wins, resolved to an absolute path', () => {
    expect(
      toolsDirectoryOf({ DEPUTY_TOOLS_DIR: '/opt/tools', XDG_CACHE_HOME: '/var/cache' }, home),
    ).toBe('/opt/tools');
    expect(toolsDirectoryOf({ DEPUTY_TOOLS_DIR: 'rel/tools' }, home)).toBe(
      path.resolve('rel/tools'),
    );
  });

  it('the installers and the trusted-files list name the same folder', () => {
    for (const env of [{}, { XDG_CACHE_HOME: '/var/cache/someone' }, { DEPUTY_TOOLS_DIR: '/t' }]) {
      expect(trustedToolsDirectory(env)).toBe(toolsDirectoryOf(env, home));
    }
    const env = { XDG_CACHE_HOME: '/var/cache/someone' };
    const location = trustedLocations(config, { homeDir: home, env }).find(
      (candidate) => candidate.path === '/var/cache/someone/deputy/tools',
    );
    expect(location?.kind).toBe('runtime');
  });
});
