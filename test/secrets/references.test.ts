import { describe, expect, it } from 'vitest';
import {
  MissingSecretError,
  referencedVariables,
  resolveSecretReferences,
  secretValue,
  withoutReferences,
} from '../../src/config/secret-references.js';

describe('${NAME} references', () => {
  it('finds the variables a value references, once each', () => {
    expect(referencedVariables('Bearer ${TOKEN} ${TOKEN} ${_OTHER_1}')).toEqual([
      'TOKEN',
      '_OTHER_1',
    ]);
    expect(referencedVariables('$TOKEN ${1BAD} ${}')).toEqual([]);
    expect(withoutReferences('Bearer ${TOKEN}')).toBe('Bearer ');
  });

  it('resolves them from the environment it is given, at the moment of use', () => {
    const env = { TOKEN: 'token-value-1', USER_NAME: 'ci' };
    expect(secretValue('Bearer ${TOKEN}', 'headers.Authorization', env)).toBe(
      'Bearer token-value-1',
    );
    expect(
      resolveSecretReferences(
        { GITHUB_TOKEN: '${TOKEN}', LOG_LEVEL: 'debug', WHO: '${USER_NAME}@host' },
        'mcpServers.github.env',
        env,
      ),
    ).toEqual({ GITHUB_TOKEN: 'token-value-1', LOG_LEVEL: 'debug', WHO: 'ci@host' });
  });

  it('fails on an unset or empty variable, naming the field and the variable only', () => {
    const resolve = () =>
      resolveSecretReferences({ GITHUB_TOKEN: '${MISSING}' }, 'mcpServers.github.env', {
        MISSING: '',
      });
    expect(resolve).toThrow(MissingSecretError);
    expect(resolve).toThrow(
      'mcpServers.github.env.GITHUB_TOKEN references ${MISSING}, which is not set in the environment',
    );
  });
});
