import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="page">
      <h1>Nothing here</h1>
      <p>
        This console has no such page. Go to the <Link to="/approvals">approvals inbox</Link>.
      </p>
    </main>
  );
}
