export function AgentEditPage({ mode }: { mode: 'create' | 'edit' }) {
  return (
    <main className="page">
      <h1>{mode === 'create' ? 'New agent' : 'Edit agent'}</h1>
      <p>Not built yet.</p>
    </main>
  );
}
