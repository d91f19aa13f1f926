import { useState } from 'react';
import { parseSchemaJson } from '../../../core/table';
import { DEMO_DATASETS } from '../../demos/demo-catalogue';
import { loadDataset } from '../../services/load-dataset';
import { messageOf } from '../../services/run-readiness';
import { useDataStore } from '../../state/data-store';

/** One-click demo datasets, bundled with the page (each with its declared schema, source and licence). */
export function DemoPicker() {
  const [busy, setBusy] = useState<string | null>(null);
  const loading = useDataStore((state) => state.loadingFileName !== null);
  const load = async (demoId: string) => {
    const demo = DEMO_DATASETS.find((candidate) => candidate.id === demoId)!;
    setBusy(demo.id);
    try {
      const { csv, schemaJson } = await demo.load();
      const declaredSchema = parseSchemaJson(schemaJson, `${demo.id}.schema.json`);
      await loadDataset(
        { kind: 'text', text: csv, fileName: demo.fileName },
        { declaredSchema, provenance: demo.provenance },
      );
    } catch (error) {
      useDataStore.setState({ loadError: `${demo.fileName}: ${messageOf(error)}` });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="demo-picker">
      <h3>Or try a demo</h3>
      <ul>
        {DEMO_DATASETS.map((demo) => (
          <li key={demo.id}>
            <button type="button" disabled={busy !== null || loading} onClick={() => void load(demo.id)}>
              Load demo: {demo.title}
            </button>
            <span className="hint"> {demo.description}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
