export function InboxPage() {
  return (
    <main className="page">
      <h1>InboxPage</h1>
      <p>Not built yet.</p>
    </main>
  );
}
