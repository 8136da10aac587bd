import { NavLink, Outlet } from 'react-router';

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">deputy</span>
        <nav aria-label="Console">
          <NavLink to="/approvals">Approvals</NavLink>
          <NavLink to="/agents">Agents</NavLink>
          <NavLink to="/delegations">Delegations</NavLink>
          <NavLink to="/sessions">Sessions</NavLink>
          <NavLink to="/schedules">Schedules</NavLink>
          <NavLink to="/mcp">MCP servers</NavLink>
        </nav>
        <a className="docs-link" href="docs">
          API reference
        </a>
      </header>
      <div id="main" className="page-area">
        <Outlet />
      </div>
    </div>
  );
}
