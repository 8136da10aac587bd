/**
 * What the page learns before its first API call (`GET /console/settings`, public): whether a
 * token is needed and where the Temporal UI is. A 401 from any call reopens the token prompt.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, messageOf, onUnauthorized } from '../api/client';
import { currentToken, setToken } from '../api/token';
import type { ConsoleSettings } from '../api/types';

interface SettingsValue {
  settings: ConsoleSettings;
  /** Bumped when the token changes, so pages reload what they read. */
  tokenGeneration: number;
}

const SettingsContext = createContext<SettingsValue | null>(null);

export function useSettings(): SettingsValue {
  const value = useContext(SettingsContext);
  if (value === null) throw new Error('useSettings outside SettingsProvider');
  return value;
}

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<ConsoleSettings | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [needsToken, setNeedsToken] = useState(false);
  const [tokenGeneration, setTokenGeneration] = useState(0);

  useEffect(() => {
    api<ConsoleSettings>('GET', '/console/settings')
      .then((loaded) => {
        setSettings(loaded);
        if (loaded.authEnabled && currentToken() === null) setNeedsToken(true);
      })
      .catch((error: unknown) => setProblem(messageOf(error)));
    return onUnauthorized(() => setNeedsToken(true));
  }, []);

  if (problem !== null) {
    return (
      <main className="gate">
        <h1>deputy console</h1>
        <p role="alert" className="banner error">
          The API did not answer: {problem}
        </p>
      </main>
    );
  }
  if (settings === null) return <p className="loading">Loading…</p>;
  if (needsToken) {
    return (
      <TokenPrompt
        onToken={(token) => {
          setToken(token);
          setNeedsToken(false);
          setTokenGeneration((n) => n + 1);
        }}
      />
    );
  }
  return (
    <SettingsContext.Provider value={{ settings, tokenGeneration }}>
      {children}
    </SettingsContext.Provider>
  );
}

function TokenPrompt({ onToken }: { onToken: (token: string) => void }) {
  const [token, setTokenText] = useState('');
  return (
    <main className="gate">
      <h1>deputy console</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onToken(token);
        }}
      >
        <label htmlFor="token">API token</label>
        <p className="hint" id="token-hint">
          This API has auth on. The token is kept in this tab only.
        </p>
        <input
          id="token"
          type="password"
          autoComplete="off"
          aria-describedby="token-hint"
          value={token}
          onChange={(event) => setTokenText(event.target.value)}
        />
        <button type="submit" className="primary" disabled={token.trim() === ''}>
          Use token
        </button>
      </form>
    </main>
  );
}
