import { InputError } from '../table/errors';

/** What a user estimates from each synthetic release before the releases are combined. */
export type Estimand =
  | { kind: 'mean'; column: string }
  | { kind: 'proportion'; column: string; level: string }
  | { kind: 'coef'; target: string; predictors: string[] };

const FORMS = 'mean:COLUMN, proportion:COLUMN=LEVEL or coef:Y~X1+X2';

/**
 * Reads an estimand written as `mean:COL`, `proportion:COL=LEVEL` or `coef:Y~X1+X2` (spaces around
 * names allowed) and checks its columns against `columns`. Throws InputError with a sentence saying
 * what was wrong and the accepted forms. Example: "proportion:sex=F" → { kind: 'proportion', column: 'sex', level: 'F' }.
 */
export function parseEstimand(text: string, columns: readonly string[]): Estimand {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon).trim();
  const body = colon < 0 ? '' : text.slice(colon + 1);
  const known = (name: string) => {
    if (!columns.includes(name))
      throw new InputError(`estimand '${text}': no column '${name}'; columns are ${columns.join(', ')}.`);
    return name;
  };
  if (kind === 'mean' && body.trim() !== '') return { kind, column: known(body.trim()) };
  if (kind === 'proportion') {
    const equals = body.indexOf('=');
    const column = equals < 0 ? '' : body.slice(0, equals).trim();
    const level = equals < 0 ? '' : body.slice(equals + 1).trim();
    if (column !== '' && level !== '') return { kind, column: known(column), level };
  }
  if (kind === 'coef') {
    const [lhs, rhs, extra] = body.split('~');
    const target = lhs?.trim() ?? '';
    const predictors = (rhs ?? '')
      .split('+')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (extra === undefined && target !== '' && predictors.length > 0) {
      if (predictors.includes(target))
        throw new InputError(`estimand '${text}': the target '${target}' cannot also be a predictor.`);
      return { kind, target: known(target), predictors: predictors.map(known) };
    }
  }
  throw new InputError(`estimand '${text}' is not one of ${FORMS}.`);
}

/** The estimand written back in the form parseEstimand reads. */
export function formatEstimand(estimand: Estimand): string {
  if (estimand.kind === 'mean') return `mean:${estimand.column}`;
  if (estimand.kind === 'proportion') return `proportion:${estimand.column}=${estimand.level}`;
  return `coef:${estimand.target}~${estimand.predictors.join('+')}`;
}
