import { expect, type Page } from '@playwright/test';
import { CompareStep } from './compare-step';
import { DataStep } from './data-step';
import { ExportStep } from './export-step';
import { MechanismStep } from './mechanism-step';
import { ResultsStep } from './results-step';
import { RunStep } from './run-step';
import { SchemaStep } from './schema-step';
import { TuneStep } from './tune-step';

/** The whole studio: one page model per step. */
export class StudioPage {
  readonly data: DataStep;
  readonly schema: SchemaStep;
  readonly mechanism: MechanismStep;
  readonly tune: TuneStep;
  readonly compare: CompareStep;
  readonly run: RunStep;
  readonly results: ResultsStep;
  readonly exports: ExportStep;

  constructor(readonly page: Page) {
    this.data = new DataStep(page);
    this.schema = new SchemaStep(page);
    this.mechanism = new MechanismStep(page);
    this.tune = new TuneStep(page);
    this.compare = new CompareStep(page);
    this.run = new RunStep(page);
    this.results = new ResultsStep(page);
    this.exports = new ExportStep(page);
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { name: 'dpsynth', level: 1 })).toBeVisible();
  }
}
