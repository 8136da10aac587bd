/**
 * The console's shell: a hash router (so no console path can collide with an API path on the
 * same origin), the top navigation, and the token gate when the API wants one.
 */
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { Layout } from './components/Layout';
import { SettingsProvider } from './components/Settings';
import { AgentsPage } from './pages/AgentsPage';
import { AgentViewPage } from './pages/AgentViewPage';
import { AgentEditPage } from './pages/AgentEditPage';
import { InboxPage } from './pages/InboxPage';
import { DelegationsPage } from './pages/DelegationsPage';
import { DelegationDetailPage } from './pages/DelegationDetailPage';
import { McpPage } from './pages/McpPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SessionsPage } from './pages/SessionsPage';
import { SessionChatPage } from './pages/SessionChatPage';
import { SchedulesPage } from './pages/SchedulesPage';

export function App() {
  return (
    <SettingsProvider>
      <HashRouter>
        <Routes>
          <Route element={<Layout />}>
            <Route index element={<Navigate to="/approvals" replace />} />
            <Route path="approvals" element={<InboxPage />} />
            <Route path="agents" element={<AgentsPage />} />
            <Route path="agents/new" element={<AgentEditPage mode="create" />} />
            <Route path="agents/:name" element={<AgentViewPage />} />
            <Route path="agents/:name/edit" element={<AgentEditPage mode="edit" />} />
            <Route path="delegations" element={<DelegationsPage />} />
            <Route path="delegations/:id" element={<DelegationDetailPage />} />
            <Route path="sessions" element={<SessionsPage />} />
            <Route path="sessions/:id" element={<SessionChatPage />} />
            <Route path="schedules" element={<SchedulesPage />} />
            <Route path="mcp" element={<McpPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </HashRouter>
    </SettingsProvider>
  );
}
