import { MECHANISMS } from '../../core/mechanisms/registry';
import type { CliIo } from '../io';
import type { ParsedArgs } from '../args';

/** `dpsynth mechanisms [--json]`: the registered mechanisms and their parameters. */
export const mechanismsCommand = {
  options: { json: { type: 'boolean' } } as const,
  run(args: ParsedArgs, io: CliIo) {
    if (args.values.json) {
      const list = MECHANISMS.map(({ id, label, summary, reference, supports, params }) => ({
        id,
        label,
        summary,
        reference,
        supports,
        params,
      }));
      io.out(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    for (const m of MECHANISMS) {
      const types = [m.supports.numeric && 'numeric', m.supports.categorical && 'categorical'].filter(
        Boolean,
      );
      io.out(
        `${m.id}\n  ${m.label}: ${m.summary}\n  Reference: ${m.reference}\n  Data: ${types.join(', ')}\n`,
      );
      for (const p of m.params) {
        const range =
          p.type === 'enum' ? ` one of ${p.options?.map((o) => o.value).join('|')}` : rangeText(p.min, p.max);
        io.out(`  --param ${p.name}=<${p.type}>${range} (default ${String(p.default)}): ${p.help}\n`);
      }
      io.out('\n');
    }
  },
};

function rangeText(min?: number, max?: number): string {
  if (min === undefined && max === undefined) return '';
  return ` in [${min ?? '-∞'}, ${max ?? '∞'}]`;
}
