export function App() {
  return (
    <main className="app">
      <header>
        <h1>dpsynth</h1>
        <p>Differentially private synthetic data, made in your browser. Your file never leaves this page.</p>
      </header>
    </main>
  );
}
