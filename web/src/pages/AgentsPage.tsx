export function AgentsPage() {
  return (
    <main className="page">
      <h1>AgentsPage</h1>
      <p>Not built yet.</p>
    </main>
  );
}
