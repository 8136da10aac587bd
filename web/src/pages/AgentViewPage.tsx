export function AgentViewPage() {
  return (
    <main className="page">
      <h1>AgentViewPage</h1>
      <p>Not built yet.</p>
    </main>
  );
}
