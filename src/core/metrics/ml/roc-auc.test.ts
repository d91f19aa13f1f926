import { describe, expect, it } from 'vitest';
import { accuracyAtHalf, agreementRate, rocAucMannWhitney } from './roc-auc';

describe('rocAucMannWhitney', () => {
  it('matches scikit-learn roc_auc_score, with ties counted as ½', () => {
    // sklearn 1.2.1: roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) = 0.75
    expect(rocAucMannWhitney([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    // sklearn 1.2.1: roc_auc_score(y, s) = 0.6 for the tie-heavy scores below
    const scores = [0.5, 0.5, 0.5, 0.2, 0.9, 0.2, 0.5, 0.9, 0.1, 0.5];
    const labels = [1, 0, 1, 0, 1, 1, 0, 0, 0, 1];
    expect(rocAucMannWhitney(scores, labels)).toBeCloseTo(0.6, 15);
  });

  it('is ½ for constant scores and null for one class', () => {
    expect(rocAucMannWhitney([0.3, 0.3, 0.3], [0, 1, 1])).toBe(0.5);
    expect(rocAucMannWhitney([0.1, 0.2], [1, 1])).toBeNull();
  });
});

describe('accuracy and agreement', () => {
  it('thresholds scores at ½', () => {
    // Predicted classes 0, 1, 1, 0 against labels 0, 1, 0, 0: three right.
    expect(accuracyAtHalf([0.2, 0.5, 0.9, 0.4], [0, 1, 0, 0])).toBe(0.75);
    expect(agreementRate([0.2, 0.5, 0.9, 0.4], [0.3, 0.6, 0.1, 0.49])).toBe(0.75);
  });
});
