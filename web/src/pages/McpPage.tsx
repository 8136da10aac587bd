/**
 * `#/mcp`: the workspace's MCP servers as the API process sees them, and the one decision this
 * page takes: approving a server that `.mcp.json` names (a file agents can write), after seeing
 * what it would run. Nothing here starts a server that is not approved; the listing itself does
 * not either. A `.mcp.json` that is not JSON is shown on top (its servers are all off then).
 */
import { useEffect, useState } from 'react';
import { messageOf } from '../api/client';
import {
  approveMcpServer,
  listMcpServers,
  withdrawMcpApproval,
  type McpServerEntry,
  type McpServerList,
} from '../api/mcp';
import { Empty, ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import './mcp/mcp.css';

/** While a server is connecting, the list is asked again each second, at most this often. */
const MAX_POLLS = 30;

export function McpPage() {
  const { tokenGeneration } = useSettings();
  const [reload, setReload] = useState(0);
  const [loaded, setLoaded] = useState<{ list?: McpServerList; error?: unknown } | null>(null);
  const [problem, setProblem] = useState<{ server: string; message: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (polls: number): void => {
      listMcpServers(controller.signal).then(
        (list) => {
          setLoaded({ list });
          const connecting = list.servers.some((server) => server.status === 'connecting');
          if (connecting && polls < MAX_POLLS) timer = setTimeout(() => ask(polls + 1), 1000);
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setLoaded({ error });
        },
      );
    };
    ask(0);
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [tokenGeneration, reload]);

  const act = (server: string, action: () => Promise<unknown>): void => {
    setBusy(server);
    setProblem(null);
    action()
      .catch((error: unknown) => setProblem({ server, message: messageOf(error) }))
      .finally(() => {
        setBusy(null);
        setReload((n) => n + 1);
      });
  };

  const list = loaded?.list;
  const waiting = (list?.servers ?? []).filter(
    (server) => server.trust !== undefined && server.trust.state !== 'approved',
  );
  return (
    <main className="page mcp-page">
      <div className="toolbar">
        <h1>MCP servers</h1>
      </div>
      {loaded === null ? <Loading what="MCP servers" /> : null}
      <ErrorBanner error={loaded?.error} />
      {list?.mcpJsonProblem ? (
        <div role="alert" className="banner error">
          <p className="banner-title">.mcp.json is not read; none of its servers is on:</p>
          <p>{list.mcpJsonProblem}</p>
        </div>
      ) : null}
      {problem === null ? null : (
        <p role="alert" className="banner error">
          {problem.server}: {problem.message}
        </p>
      )}
      {waiting.map((server) => (
        <Approval
          key={server.name}
          server={server}
          busy={busy === server.name}
          onApprove={(hash) => act(server.name, () => approveMcpServer(server.name, hash))}
        />
      ))}
      {list === undefined ? null : list.servers.length === 0 ? (
        <Empty>No MCP server is configured or written in a definition.</Empty>
      ) : (
        <ServerTable
          servers={list.servers}
          busy={busy}
          onWithdraw={(name) => act(name, () => withdrawMcpApproval(name))}
        />
      )}
    </main>
  );
}

/** One `.mcp.json` server waiting for a person: why, what it would run, and the decision. */
function Approval({
  server,
  busy,
  onApprove,
}: {
  server: McpServerEntry;
  busy: boolean;
  onApprove: (hash: string) => void;
}) {
  const trust = server.trust!;
  const run = trust.wouldRun;
  const headingId = `mcp-approval-${server.name}`;
  return (
    <section className="mcp-approval banner warning" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {server.name}{' '}
        {trust.state === 'new'
          ? 'is new in .mcp.json and not approved'
          : trust.state === 'unsigned'
            ? 'has an approval deputy did not sign (hand-written, copied, or from before approvals were signed)'
            : 'changed in .mcp.json since it was approved'}
      </h2>
      <p>
        It is not started (by a worker, a listing or a delegation) until a person approves what the
        file says now. Approve only what you would run yourself.
      </p>
      <dl>
        {run?.command === undefined ? null : (
          <>
            <dt>Runs</dt>
            <dd>
              <code>{[run.command, ...(run.args ?? [])].map(shellWord).join(' ')}</code>
            </dd>
          </>
        )}
        {run?.url === undefined ? null : (
          <>
            <dt>Connects to</dt>
            <dd>
              <code>{run.url}</code>
            </dd>
          </>
        )}
        {run === undefined || run.envNames.length === 0 ? null : (
          <>
            <dt>Environment</dt>
            <dd>{run.envNames.join(', ')}</dd>
          </>
        )}
        {run === undefined || run.headerNames.length === 0 ? null : (
          <>
            <dt>Headers</dt>
            <dd>{run.headerNames.join(', ')}</dd>
          </>
        )}
        <dt>sha256</dt>
        <dd>
          <code>{trust.hash}</code>
        </dd>
      </dl>
      {server.status === 'refused' ? <p>{server.lastError}</p> : null}
      <button
        type="button"
        className="button primary"
        disabled={busy}
        onClick={() => onApprove(trust.hash)}
      >
        Approve {server.name}
      </button>{' '}
      <span className="hint">
        or <code>{trust.approve}</code> in a terminal
      </span>
    </section>
  );
}

/** A word quoted when a shell would split it, so the command line shown is unambiguous. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

function ServerTable({
  servers,
  busy,
  onWithdraw,
}: {
  servers: McpServerEntry[];
  busy: string | null;
  onWithdraw: (name: string) => void;
}) {
  return (
    <table className="list mcp-table">
      <caption className="visually-hidden">MCP servers</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Source</th>
          <th scope="col">Status</th>
          <th scope="col" className="number">
            Tools
          </th>
          <th scope="col">Declared by</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((server) => (
          <tr key={`${server.source}:${server.name}`}>
            <td>{server.name}</td>
            <td>{server.source}</td>
            <td>
              <span className={`badge mcp-status-${server.status}`}>{server.status}</span>
            </td>
            <td className="number">{server.toolCount ?? '—'}</td>
            <td>{server.declaredBy.join(', ') || '—'}</td>
            <td>
              {server.status === 'connected' ? null : server.lastError}
              {server.trust?.state === 'approved' ? (
                <button
                  type="button"
                  className="link"
                  disabled={busy === server.name}
                  onClick={() => onWithdraw(server.name)}
                >
                  Withdraw approval
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
