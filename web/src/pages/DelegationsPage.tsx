export function DelegationsPage() {
  return (
    <main className="page">
      <h1>DelegationsPage</h1>
      <p>Not built yet.</p>
    </main>
  );
}
