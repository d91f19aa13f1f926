import { describe, expect, it } from 'vitest';
import { logBeta } from './log-beta';
import { logGamma } from './log-gamma';
import { regularizedIncompleteBeta } from './regularized-incomplete-beta';
import { studentTCdf, studentTDensity, studentTQuantile } from './student-t';
import { expectRelativelyClose } from '../testing/expect-close';

// R 4.2.2: sprintf("%.17g", qt(c(0.975, 0.995, 0.6, 1e-6), nu)) and
// sprintf("%.17g", pt(c(-3, -0.5, 0.2, 2), nu)) for each nu.
const R_T: { nu: number; qt: number[]; pt: number[] }[] = [
  {
    nu: 1,
    qt: [12.706204736174694, 63.656741162871526, 0.32491969623290634, -318309.88618274347],
    pt: [0.10241638234956672, 0.35241638234956679, 0.56283295818900114, 0.85241638234956674],
  },
  {
    nu: 2,
    qt: [4.3026527297494619, 9.9248432009182892, 0.28867513459481314, -707.10572052593386],
    pt: [0.047732983133354563, 0.33333333333333337, 0.57001400420140047, 0.90824829046386302],
  },
  {
    nu: 2.5,
    qt: [3.5746548420036919, 7.1637281389488026, 0.28145951274854752, -220.17342917823751],
    pt: [0.036288047774515921, 0.32884895993485741, 0.5716951579854872, 0.92130425212101708],
  },
  {
    nu: 3,
    qt: [3.1824463052837078, 5.8409093097333544, 0.27667066233268983, -103.29946778041933],
    pt: [0.028834442811218657, 0.32572398242407552, 0.5728648353768605, 0.93033701572057836],
  },
  {
    nu: 5,
    qt: [2.5705818356363137, 4.0321429835552287, 0.26718086570414518, -24.771029720515955],
    pt: [0.015049623948731284, 0.31914943582046451, 0.57531974300208555, 0.9490302605850709],
  },
  {
    nu: 6.86419973858482,
    qt: [2.3741408079273567, 3.5231952320017541, 0.26336443184450431, -14.619332375302012],
    pt: [0.010205523100441876, 0.3163509954145669, 0.57636178178477826, 0.95678631282930637],
  },
  {
    nu: 10,
    qt: [2.2281388519862739, 3.16927267261695, 0.26018482949208016, -9.7519954909405797],
    pt: [0.006671827511284794, 0.31394680287148646, 0.57725540430982725, 0.96330598261462974],
  },
  {
    nu: 30,
    qt: [2.0422724563012378, 2.7499956535672254, 0.25560536495191277, -5.8711171204188828],
    pt: [0.0026949820328259705, 0.31036150244256366, 0.57858492147033769, 0.97268747751850837],
  },
  {
    nu: 100,
    qt: [1.9839715185235516, 2.6258905214380182, 0.25402218245822766, -5.0488308772283457],
    pt: [0.0017039576716647252, 0.30908678291544334, 0.57905663189877465, 0.97589391063443309],
  },
  {
    nu: 1000,
    qt: [1.9623390808264076, 2.5807546980659501, 0.25341451583949876, -4.7816086204583499],
    pt: [0.001383354522119095, 0.30859254041693751, 0.57923937783801205, 0.97711482675337424],
  },
  {
    nu: 1e6,
    qt: [1.9599663568141066, 2.5758342201053335, 0.25334717053784167, -4.75345234827968],
    pt: [0.0013499312707108962, 0.30853759373618583, 0.57925968910488557, 0.97724973307434038],
  },
];
const QT_PROBABILITIES = [0.975, 0.995, 0.6, 1e-6];
const PT_POINTS = [-3, -0.5, 0.2, 2];

describe('Student t against R', () => {
  it.each(R_T)('quantiles and CDF with nu = $nu', ({ nu, qt, pt }) => {
    // Incomplete-beta continued fraction and Newton stopping rule: about 1e-14; 1e-12 allows for
    // cancellation in 1 − tail for the upper quantiles.
    QT_PROBABILITIES.forEach((p, i) =>
      expectRelativelyClose(studentTQuantile(p, nu), qt[i]!, 1e-12, `qt(${p}, ${nu})`),
    );
    PT_POINTS.forEach((t, i) => expectRelativelyClose(studentTCdf(t, nu), pt[i]!, 1e-12, `pt(${t}, ${nu})`));
  });

  it('is the normal distribution at infinite degrees of freedom', () => {
    expect(studentTQuantile(0.975, Infinity)).toBeCloseTo(1.959963984540054, 15);
    expect(studentTCdf(0, Infinity)).toBe(0.5);
    expect(studentTDensity(0, Infinity)).toBeCloseTo(0.3989422804014327, 15);
  });

  it('has the Cauchy density at one degree of freedom', () => {
    expect(studentTDensity(0, 1)).toBeCloseTo(1 / Math.PI, 15);
  });

  it('rejects non-positive degrees of freedom', () => {
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
  });
});

describe('special functions against R', () => {
  it('logGamma matches lgamma', () => {
    // R: sprintf("%.17g", lgamma(c(0.1, 0.5, 1, 2.5, 10, 123.4, 1e5)))
    const points = [0.1, 0.5, 1, 2.5, 10, 123.4, 1e5];
    const expected = [
      2.252712651734206, 0.57236494292470008, 0, 0.28468287047291918, 12.801827480081469, 469.33609744219063,
      1051287.7089736569,
    ];
    points.forEach((x, i) =>
      expect(Math.abs(logGamma(x) - expected[i]!)).toBeLessThanOrEqual(
        1e-13 * Math.max(1, Math.abs(expected[i]!)),
      ),
    );
  });

  it('regularizedIncompleteBeta matches pbeta', () => {
    // R: pbeta(c(0.5, 0.1, 0.9), 2, 3); pbeta(0.3, 50, 0.5)
    expectRelativelyClose(regularizedIncompleteBeta(0.5, 2, 3), 0.6875, 1e-14, 'pbeta(0.5,2,3)');
    expectRelativelyClose(
      regularizedIncompleteBeta(0.1, 2, 3),
      0.052300000000000027,
      1e-13,
      'pbeta(0.1,2,3)',
    );
    expectRelativelyClose(regularizedIncompleteBeta(0.9, 2, 3), 0.99629999999999996, 1e-14, 'pbeta(0.9,2,3)');
    expectRelativelyClose(
      regularizedIncompleteBeta(0.3, 50, 0.5),
      6.8008258851737365e-28,
      1e-12,
      'pbeta(0.3,50,0.5)',
    );
  });
});

describe('logBeta', () => {
  it('matches R lbeta, including large arguments where the direct formula cancels', () => {
    // R: sprintf("%.17g", lbeta(c(2, 0.5, 500000, 15, 3), c(3, 0.5, 0.5, 40, 1e6)))
    const cases: [number, number, number][] = [
      [2, 3, -2.4849066497880004],
      [0.5, 0.5, 1.1447298858494004],
      [500000, 0.5, -5.9888164957774643],
      [15, 40, -32.497130819813037],
      [3, 1e6, -40.753387493330372],
    ];
    for (const [a, b, expected] of cases) {
      expect(Math.abs(logBeta(a, b) - expected)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(expected)));
    }
  });
});
