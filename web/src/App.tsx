// Every screen has its own URL, so a link or a reload opens it again (the service answers
// index.html for every path that is not the API).
import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { Layout } from './components/Layout'
import { Loading } from './components/State'
import { AcceptInvite } from './pages/AcceptInvite'
import { Account } from './pages/Account'
import { Activity } from './pages/Activity'
import { IntegrationSettings } from './pages/IntegrationSettings'
import { Integrations } from './pages/Integrations'
import { MaintenancePage } from './pages/Maintenance'
import { NotFound } from './pages/NotFound'
import { RulesPage } from './pages/Rules'
import { SignIn } from './pages/SignIn'
import { TicketPage } from './pages/Ticket'
import { Tickets } from './pages/Tickets'
import { Users } from './pages/Users'
import { Wizard } from './pages/wizard/Wizard'

// The dashboard carries the charting library: loaded when it is first opened.
const Dashboard = lazy(() => import('./pages/Dashboard').then((m) => ({ default: m.Dashboard })))

export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/sign-in" element={<SignIn />} />
        <Route path="/invite" element={<AcceptInvite />} />
        <Route element={<Layout />}>
          <Route index element={<Navigate to="/integrations" replace />} />
          <Route path="/integrations" element={<Integrations />} />
          <Route path="/integrations/:id/setup" element={<Navigate to="connect" replace />} />
          <Route path="/integrations/:id/setup/:step" element={<Wizard />} />
          <Route path="/integrations/:id/rules" element={<RulesPage />} />
          <Route path="/integrations/:id/settings" element={<IntegrationSettings />} />
          <Route path="/integrations/:id/maintenance" element={<MaintenancePage />} />
          <Route path="/tickets" element={<Tickets />} />
          <Route path="/tickets/:correlationId" element={<TicketPage />} />
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/activity" element={<Activity />} />
          <Route path="/users" element={<Users />} />
          <Route path="/account" element={<Account />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Suspense>
  )
}
