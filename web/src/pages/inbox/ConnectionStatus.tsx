/** Whether the live stream is up, and when not, that it is being reopened. */
import type { Connection } from './use-card-inbox';

export function ConnectionStatus({ connection }: { connection: Connection }) {
  const text =
    connection.state === 'live'
      ? 'Live'
      : connection.state === 'connecting'
        ? 'Connecting…'
        : connection.retrying
          ? `Live updates are down (${connection.problem}); reconnecting…`
          : `Live updates stopped: ${connection.problem}. Reload the page to try again.`;
  return (
    <p role="status" className={`connection connection-${connection.state}`}>
      <span className="connection-dot" aria-hidden="true" />
      {text}
    </p>
  );
}
