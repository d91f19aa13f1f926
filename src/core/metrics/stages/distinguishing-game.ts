import { distinguishingGame } from '../distinguishing-game';
import { defineMetricStage } from './stage';

/** Held-out accuracy of a classifier telling real from synthetic rows, per release (../distinguishing-game.ts). */
export const distinguishingGameStage = defineMetricStage({
  id: 'game',
  label: 'Distinguishing game',
  weight: 2,
  section: 'distinguishingGame',
  enabled: (options) => options.distinguishingGame !== false,
  run({ real, options, rng, perRelease }) {
    const game = options.distinguishingGame;
    const gameOptions = game === undefined || game === false ? {} : game;
    const results = perRelease((synth) => distinguishingGame(real, synth, rng, gameOptions));
    return {
      perRelease: results,
      meanAccuracy: results.reduce((s, r) => s + r.accuracy, 0) / results.length,
    };
  },
});
