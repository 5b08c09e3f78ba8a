import { MESSAGES } from './messages';
import type { SupplierRequisites } from './schemas/settings';
import {
  accountProblem,
  bikProblem,
  corrAccountProblem,
  innProblem,
  kppProblem,
  ogrnProblem,
  SUPPLIER_MESSAGES,
  supplierRequisitesMissing,
  supplierRequisitesProblem,
} from './requisites';

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

// Published details of real banks: ПАО Сбербанк (Moscow and its Северо-Западный банк in
// St Petersburg), Банк ВТБ and АО «ТБанк» (БИК and the correspondent account at the Central Bank),
// and Сбербанк's ОГРН.
const SBER_BIK = '044525225';
const SBER_CORR_ACCOUNT = '30101810400000000225';
const SBER_SPB_BIK = '044030653';
const SBER_SPB_CORR_ACCOUNT = '30101810500000000653';
const VTB_BIK = '044525187';
const VTB_CORR_ACCOUNT = '30101810700000000187';
const TBANK_BIK = '044525974';
const TBANK_CORR_ACCOUNT = '30101810145250000974';
const SBER_OGRN = '1027700132195';
// A settlement account whose ninth digit (the key) is right for Т-Банк's БИК and wrong for
// Сбербанк's; Сбербанк's key for the same digits is 6.
const TBANK_ACCOUNT = '40702810938000000000';
const SBER_ACCOUNT = '40702810638000000000';
const PERSONAL_OGRNIP = '304500116000157';

/** Every account made by changing one digit of this one (a typo in any place). */
function oneDigitTypos(number: string): string[] {
  return [...number].flatMap((digit, index) =>
    [1, 5, 9].map((step) => number.slice(0, index) + String((Number(digit) + step) % 10) + number.slice(index + 1)),
  );
}

describe('bikProblem', () => {
  test.each([SBER_BIK, VTB_BIK, TBANK_BIK])('%s is valid', (bik) => expect(bikProblem(bik)).toBeNull());
  test.each(['', '04452522', '0445252250', '144525225', '034525225', '04452522a', ' 044525225'])(
    '%j is refused',
    (bik) => expect(bikProblem(bik)).toBe(SUPPLIER_MESSAGES.bikInvalid),
  );
});

describe('accountProblem', () => {
  test.each([
    [TBANK_ACCOUNT, TBANK_BIK],
    [SBER_ACCOUNT, SBER_BIK],
  ])('%s is valid at %s', (account, bik) => expect(accountProblem(account, bik)).toBeNull());

  test('the key depends on the bank: the same digits fail at another БИК', () => {
    expect(accountProblem(TBANK_ACCOUNT, SBER_BIK)).toBe(SUPPLIER_MESSAGES.accountChecksum);
    expect(accountProblem(SBER_ACCOUNT, TBANK_BIK)).toBe(SUPPLIER_MESSAGES.accountChecksum);
  });

  test('a typo in any one digit breaks the key', () => {
    for (const typo of oneDigitTypos(SBER_ACCOUNT))
      expect(accountProblem(typo, SBER_BIK)).toBe(SUPPLIER_MESSAGES.accountChecksum);
  });

  test.each(['', '4070281063800000000', '407028106380000000000', '4070281063800000000a'])(
    '%j has the wrong shape',
    (account) => expect(accountProblem(account, SBER_BIK)).toBe(SUPPLIER_MESSAGES.accountLength),
  );

  test('an account cannot be checked against a БИК that is not valid', () => {
    expect(accountProblem(SBER_ACCOUNT, '144525225')).toBe(SUPPLIER_MESSAGES.accountChecksum);
  });
});

describe('corrAccountProblem', () => {
  test.each([
    [SBER_CORR_ACCOUNT, SBER_BIK],
    [VTB_CORR_ACCOUNT, VTB_BIK],
    [TBANK_CORR_ACCOUNT, TBANK_BIK],
    [SBER_SPB_CORR_ACCOUNT, SBER_SPB_BIK],
  ])('%s is valid at %s', (corrAccount, bik) => expect(corrAccountProblem(corrAccount, bik)).toBeNull());

  // The key takes the БИК's fifth and sixth digits (the Central Bank's division): Moscow's 25, St Petersburg's 30.
  test('a correspondent account at another division of the Central Bank fails', () => {
    expect(corrAccountProblem(SBER_SPB_CORR_ACCOUNT, SBER_BIK)).toBe(SUPPLIER_MESSAGES.corrAccountChecksum);
    expect(corrAccountProblem(SBER_CORR_ACCOUNT, SBER_SPB_BIK)).toBe(SUPPLIER_MESSAGES.corrAccountChecksum);
  });

  test('a typo in any digit after 301 breaks the key', () => {
    const typos = oneDigitTypos(SBER_CORR_ACCOUNT).filter((typo) => typo.startsWith('301'));
    for (const typo of typos) expect(corrAccountProblem(typo, SBER_BIK)).toBe(SUPPLIER_MESSAGES.corrAccountChecksum);
  });

  test.each(['', SBER_ACCOUNT, '3010181040000000022', '302' + SBER_CORR_ACCOUNT.slice(3)])(
    '%j is not a correspondent account',
    (corrAccount) => expect(corrAccountProblem(corrAccount, SBER_BIK)).toBe(SUPPLIER_MESSAGES.corrAccountShape),
  );
});

describe('ogrnProblem', () => {
  test('an organisation: 13 digits beside a 10-digit ИНН', () => {
    expect(ogrnProblem(SBER_OGRN, ORGANISATION_INN)).toBeNull();
  });

  test('an ИП: 15 digits beside a 12-digit ИНН', () => {
    expect(ogrnProblem(PERSONAL_OGRNIP, PERSONAL_INN)).toBeNull();
  });

  test('the check digit is the rest by 11 (ОГРН) or 13 (ОГРНИП), its last digit', () => {
    // 102770013219 = 11 · 9342728474 + 5; 30450011600015 = 13 · 2342308584616 + 7.
    expect(ogrnProblem('1027700132194', ORGANISATION_INN)).toBe(SUPPLIER_MESSAGES.ogrnChecksum);
    expect(ogrnProblem('304500116000156', PERSONAL_INN)).toBe(SUPPLIER_MESSAGES.ogrnChecksum);
  });

  test.each(['', '102770013219', '10277001321950', '10277001321a5', '3045001160001570'])(
    '%j has the wrong length',
    (ogrn) => expect(ogrnProblem(ogrn, ORGANISATION_INN)).toBe(SUPPLIER_MESSAGES.ogrnLength),
  );

  test('the kinds of ОГРН and ИНН must agree', () => {
    expect(ogrnProblem(SBER_OGRN, PERSONAL_INN)).toBe(SUPPLIER_MESSAGES.ogrnInnMismatch);
    expect(ogrnProblem(PERSONAL_OGRNIP, ORGANISATION_INN)).toBe(SUPPLIER_MESSAGES.ogrnInnMismatch);
  });
});

const SUPPLIER: SupplierRequisites = {
  name: 'ООО «Мягкий Опт»',
  inn: ORGANISATION_INN,
  kpp: '773601001',
  ogrn: SBER_OGRN,
  address: '117997, г. Москва, ул. Вавилова, д. 19',
  bank_name: 'ПАО Сбербанк',
  bik: SBER_BIK,
  account: SBER_ACCOUNT,
  corr_account: SBER_CORR_ACCOUNT,
  vat_rate: 22,
  payment_days: 5,
};

describe('supplierRequisitesProblem', () => {
  test('complete, valid details of an organisation pass', () => {
    expect(supplierRequisitesProblem(SUPPLIER)).toBeNull();
  });

  test('an ИП passes without a КПП', () => {
    expect(supplierRequisitesProblem({ ...SUPPLIER, inn: PERSONAL_INN, kpp: null, ogrn: PERSONAL_OGRNIP })).toBeNull();
  });

  test.each([
    [{ inn: '7707083894' }, MESSAGES.innChecksum],
    [{ kpp: '7736010' }, MESSAGES.kppLength],
    [{ inn: PERSONAL_INN, ogrn: PERSONAL_OGRNIP }, MESSAGES.kppWithPersonalInn],
    [{ ogrn: '1027700132194' }, SUPPLIER_MESSAGES.ogrnChecksum],
    [{ bik: '144525225' }, SUPPLIER_MESSAGES.bikInvalid],
    [{ account: TBANK_ACCOUNT }, SUPPLIER_MESSAGES.accountChecksum],
    [{ corr_account: SBER_SPB_CORR_ACCOUNT }, SUPPLIER_MESSAGES.corrAccountChecksum],
    [{ kpp: null }, `${SUPPLIER_MESSAGES.incomplete}КПП.`],
  ])('%j is refused', (change, message) => {
    expect(supplierRequisitesProblem({ ...SUPPLIER, ...change })).toBe(message);
  });
});

describe('supplierRequisitesMissing', () => {
  test('nothing is missing from complete details, whatever the VAT rate', () => {
    expect(supplierRequisitesMissing(SUPPLIER)).toBeNull();
    expect(supplierRequisitesMissing({ ...SUPPLIER, vat_rate: null })).toBeNull();
  });

  test('no details at all: every field is named, in the form’s order', () => {
    expect(supplierRequisitesMissing(null)).toBe(
      'Заполните реквизиты поставщика: наименование, ИНН, ОГРН, адрес, банк, БИК, расчётный счёт, корреспондентский счёт, срок оплаты.',
    );
  });

  test('blank fields are named; an organisation also needs a КПП', () => {
    expect(supplierRequisitesMissing({ ...SUPPLIER, kpp: null, bik: '', corr_account: undefined })).toBe(
      'Заполните реквизиты поставщика: КПП, БИК, корреспондентский счёт.',
    );
  });

  test('an ИП needs no КПП', () => {
    expect(supplierRequisitesMissing({ ...SUPPLIER, inn: PERSONAL_INN, kpp: null })).toBeNull();
  });
});
