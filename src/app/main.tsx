import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { warmNumberFormat } from './components/number-format';
import { registerServiceWorker } from './services/service-worker';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element.');
createRoot(rootElement).render(
  <StrictMode>
    <ErrorBoundary area="the studio">
      <App />
    </ErrorBoundary>
  </StrictMode>,
);

registerServiceWorker();
warmNumberFormat();
