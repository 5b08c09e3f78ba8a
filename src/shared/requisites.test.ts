import { MESSAGES } from './api';
import { innProblem, kppProblem } from './requisites';

// Real, published ИНН: ПАО Сбербанк (organisation) and a check-digit-valid ИП number.
const ORGANISATION_INN = '7707083893';
const PERSONAL_INN = '500100732259';

describe('innProblem', () => {
  test.each([ORGANISATION_INN, PERSONAL_INN])('%s is valid', (inn) => {
    expect(innProblem(inn)).toBeNull();
  });

  test.each(['', '770708389', '77070838930', '7707083893 ', '77070838a3', '５００１００７３２２５９', '5001007322590'])(
    '%j has the wrong length or a non-digit',
    (inn) => expect(innProblem(inn)).toBe(MESSAGES.innLength),
  );

  test.each(['7707083894', '500100732250', '500100732269'])('%s fails its check digits', (inn) => {
    expect(innProblem(inn)).toBe(MESSAGES.innChecksum);
  });
});

describe('kppProblem', () => {
  test.each(['773601001', '7736AB001', '7736A1001'])('%s is valid beside an organisation ИНН', (kpp) => {
    expect(kppProblem(kpp, ORGANISATION_INN)).toBeNull();
  });

  test.each(['77360100', '7736010011', '7736ab001', 'A73601001', '773601A01', '7736-0100'])(
    '%s has the wrong shape',
    (kpp) => expect(kppProblem(kpp, ORGANISATION_INN)).toBe(MESSAGES.kppLength),
  );

  test('a КПП beside a 12-digit ИНН is refused, whatever its shape', () => {
    expect(kppProblem('773601001', PERSONAL_INN)).toBe(MESSAGES.kppWithPersonalInn);
  });
});
