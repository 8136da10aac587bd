export function DelegationDetailPage() {
  return (
    <main className="page">
      <h1>DelegationDetailPage</h1>
      <p>Not built yet.</p>
    </main>
  );
}
