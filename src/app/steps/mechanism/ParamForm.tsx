import { useId } from 'react';
import { describeAcceptedValues } from '../../../core/mechanisms/params';
import type { MechanismMeta, ParamSpec } from '../../../core/mechanisms/types';
import { setParamDraft, useJobStore, type ParamDraft } from '../../state/job-store';

interface ParamFormProps {
  mechanism: MechanismMeta;
  /** The sentence from resolveParams, shown beside the parameter it names. */
  paramError: { parameter: string | null; message: string } | null;
}

/**
 * The parameter form of any mechanism, generated from its `params` specs (DESIGN.md §2): no
 * mechanism has form code of its own. Values are kept as typed and checked by resolveParams.
 */
export function ParamForm({ mechanism, paramError }: ParamFormProps) {
  const drafts = useJobStore((state) => state.paramDrafts[mechanism.id]);
  if (mechanism.params.length === 0) return <p className="hint">This mechanism has no parameters.</p>;
  return (
    <fieldset className="param-form" data-testid="param-form">
      <legend>Parameters of {mechanism.label}</legend>
      {mechanism.params.map((spec) => (
        <ParamField
          key={spec.name}
          spec={spec}
          value={drafts?.[spec.name]}
          error={paramError?.parameter === spec.name ? paramError.message : null}
          onChange={(value) => setParamDraft(mechanism.id, spec.name, value)}
        />
      ))}
      {paramError !== null && paramError.parameter === null && (
        <p className="field-problem" role="alert">
          {paramError.message}
        </p>
      )}
    </fieldset>
  );
}

interface ParamFieldProps {
  spec: ParamSpec;
  value: ParamDraft | undefined;
  error: string | null;
  onChange(value: ParamDraft): void;
}

function ParamField({ spec, value, error, onChange }: ParamFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = error ? `${helpId} ${errorId}` : helpId;
  const current = value ?? (typeof spec.default === 'boolean' ? spec.default : String(spec.default));
  let control;
  switch (spec.type) {
    case 'boolean':
      control = (
        <input
          id={id}
          type="checkbox"
          checked={current === true || current === 'true'}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
      break;
    case 'enum':
      control = (
        <select
          id={id}
          value={String(current)}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        >
          {(spec.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
    case 'integer':
    case 'text':
      control = (
        <input
          id={id}
          type="text"
          inputMode={spec.type === 'integer' ? 'numeric' : spec.type === 'number' ? 'decimal' : 'text'}
          value={String(current)}
          aria-invalid={error !== null}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
  }
  return (
    <div className={`param-field param-field-${spec.type}`} data-param={spec.name}>
      <label htmlFor={id}>{spec.label}</label>
      {control}
      <p id={helpId} className="hint">
        {spec.help}
        {spec.type === 'number' || spec.type === 'integer'
          ? ` (${describeAcceptedValues(spec)}; default ${String(spec.default)})`
          : ''}
      </p>
      {error && (
        <p id={errorId} className="field-problem" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
