import './checkout.css';
import { Alert, Button, Card, Checkbox, Form, Input, Select, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { LegalEntity } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { MESSAGES } from '@shared/messages';
import { formatKopecks, formatRubles, rublesToKopecks } from '@shared/money';
import { PAGE_PATHS } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/hooks/reduxHooks';
import { PRICE_AFTER_SIGN_IN } from '@/components/priceAfterSignIn';
import { PageLoading } from '@/components/PageLoading';
import { useGetAddressesQuery } from '@/features/addresses/addressesApi';
import { useGetCompanyQuery } from '@/features/company/companyApi';
import { useCompanyStanding } from '@/features/company/companyStanding';
import { formatAddress } from '@/features/addresses/formatAddress';
import { useCreateOrderMutation } from '@/features/orders/ordersApi';
import { useGetRequisitesQuery, useSaveRequisitesMutation } from '@/features/requisites/requisitesApi';
import { blankToNull, requisitesOf } from '@/features/requisites/requisitesValues';
import { selectUser } from '@/features/session/sessionSlice';
import { useCheckoutDraft } from './checkoutDraft';
import { forgetCheckoutFields, keepCheckoutFields, readCheckoutFields, type CheckoutFields } from './checkoutFields';
import type { CheckoutLine } from './checkoutLines';
import { LegalEntityField } from './LegalEntityField';

/** The buyer's fields the page composes: the contact's name and phone, and the company's details typed by hand. */
export interface RequisiteParts {
  contact: ReactNode;
  company: ReactNode;
}

/** RTK Query's status for a request that got no answer at all (offline, connection reset). */
const noAnswer = (failure: unknown) => (failure as { status?: unknown } | null)?.status === 'FETCH_ERROR';

const OFFLINE_DETAIL =
  'Нет связи с сервером. Введённые данные сохранены: отправьте заказ ещё раз, когда связь вернётся.';

/** What the checkout shows while its lines (or the saved details the form opens with) load. */
export function CheckoutLoading() {
  return (
    <div>
      <Typography.Paragraph>Загрузка товаров...</Typography.Paragraph>
      <PageLoading />
    </div>
  );
}

/**
 * The legal entity the form opens with: the one the buyer chose at this checkout before (while it
 * is still the company's), else the last used (the API lists it first), else the company's default.
 */
function preselectedEntity(entities: LegalEntity[], typed: string | null | undefined): LegalEntity | undefined {
  const [first] = entities;
  return (
    entities.find((entity) => entity.id === typed) ??
    (first?.last_used_at ? first : (entities.find((entity) => entity.is_default) ?? first))
  );
}

const signature = (lines: CheckoutLine[]) =>
  lines.map(({ art, variantId, count }) => `${art}:${variantId}:${count}`).join(',');

/**
 * The checkout of `lines`: the buyer's details (`requisiteFields`, composed by the page; a company
 * with legal entities picks one of them instead of typing its details) and the delivery address.
 * What is typed is kept per account (checkoutFields.ts), the Idempotency-Key per set of lines
 * (checkoutDraft.ts). `cartVersion`: the lines are the server cart at that version, and the order
 * says so (a cart changed meanwhile refuses it).
 */
export function CheckoutForm({
  lines,
  cartVersion,
  requisiteFields,
}: {
  lines: CheckoutLine[];
  cartVersion?: number;
  requisiteFields: RequisiteParts;
}) {
  const user = useAppSelector(selectUser)!;
  const navigate = useNavigate();
  const [form] = Form.useForm<CheckoutFields>();
  const [alert, setAlert] = useState<{ title: string; detail?: string } | null>(null);
  const draft = useCheckoutDraft(signature(lines));
  const [typed] = useState(() => readCheckoutFields(user.id));
  const requisites = useGetRequisitesQuery(user.id);
  const standing = useCompanyStanding();
  const company = useGetCompanyQuery(undefined, { skip: !standing.company });
  const { data: addresses } = useGetAddressesQuery(user.id);
  const [createOrder, { isLoading: sending }] = useCreateOrderMutation();
  const [saveRequisites] = useSaveRequisitesMutation();

  // The form opens with the saved details and the company's legal entities in it, so it waits for them.
  if (requisites.isLoading || company.isLoading) return <CheckoutLoading />;
  const entities = company.data?.legal_entities ?? [];
  const opening = typed ?? requisites.data ?? {};
  const initialValues =
    entities.length > 0
      ? { ...opening, legal_entity_id: preselectedEntity(entities, typed?.legal_entity_id)?.id }
      : opening;
  // Prices hidden from visitors: a session that ended while the page was open reads them so.
  const pricesHidden = lines.some((line) => line.price === null);
  const totalKopecks = lines.reduce((sum, line) => sum + rublesToKopecks(line.price ?? 0) * line.count, 0);

  const submit = async (fields: CheckoutFields) => {
    setAlert(null);
    const address = blankToNull(fields.address);
    const details = requisitesOf(fields);
    if (!details.contact_name || !details.contact_phone || !address) {
      setAlert({ title: MESSAGES.checkoutRequired });
      return;
    }
    // For a legal entity of the company the server takes its details from it; else they are typed.
    const buyer =
      entities.length > 0
        ? {
            contact_name: details.contact_name,
            contact_phone: details.contact_phone,
            legal_entity_id: fields.legal_entity_id!,
          }
        : details;
    let orderId: number;
    try {
      const order = {
        user_id: user.id,
        address,
        items: lines.map((line) => ({ product_id: line.productId, variant_id: line.variantId, quantity: line.count })),
        ...buyer,
        ...(cartVersion === undefined ? {} : { cart_version: cartVersion }),
      };
      orderId = (await createOrder({ order, idempotencyKey: draft.idempotencyKey }).unwrap()).id;
    } catch (failure) {
      setAlert({
        title: MESSAGES.orderFailed,
        detail: serverErrorDetail(failure) ?? (noAnswer(failure) ? OFFLINE_DETAIL : undefined),
      });
      return;
    }
    draft.discard();
    forgetCheckoutFields(user.id);
    // The order is placed whatever becomes of this: the details, checked by the same rules, are a convenience.
    // With a legal entity, saving makes it the company's default.
    if (fields.saveRequisites) await saveRequisites({ userId: user.id, ...buyer }).catch(() => undefined);
    navigate(`${PAGE_PATHS.orderSuccess}?order=${orderId}`, { replace: true });
  };

  const pickAddress = (id: number) => {
    const picked = addresses?.find((address) => address.id === id);
    if (!picked) return;
    form.setFieldValue('address', formatAddress(picked));
    keepCheckoutFields(user.id, form.getFieldsValue(true));
  };

  return (
    <div className="checkout">
      <Card title="Ваш заказ" className="checkout-lines">
        <ul className="checkout-line-list">
          {lines.map((line) => (
            <li key={`${line.art}:${line.variantId}`} className="checkout-line">
              <span>
                <span>
                  {line.name} x {line.count}
                </span>
                <Typography.Text type="secondary" className="checkout-line-variant">
                  {line.color}, {line.size} см · арт. {line.art} ·{' '}
                  {line.price === null ? PRICE_AFTER_SIGN_IN : `${formatRubles(line.price)} / шт.`}
                  {line.tierFrom !== null && ` · цена от ${line.tierFrom} шт.`}
                </Typography.Text>
              </span>
              {line.price !== null && (
                <Typography.Text strong>{formatKopecks(rublesToKopecks(line.price) * line.count)}</Typography.Text>
              )}
            </li>
          ))}
        </ul>
        {/* The page's second heading level (it follows the page's h1), drawn at the fourth's size. */}
        <Typography.Title level={2} className="checkout-total">
          Итого: {pricesHidden ? PRICE_AFTER_SIGN_IN : formatKopecks(totalKopecks)}
        </Typography.Title>
      </Card>
      <Card title="Данные для заказа" className="checkout-form">
        <Form
          form={form}
          layout="vertical"
          // What the buyer typed wins; before they type anything, their saved details.
          initialValues={initialValues}
          onFinish={submit}
          onValuesChange={(_changed, values) => {
            setAlert(null);
            keepCheckoutFields(user.id, values);
          }}
          requiredMark="optional"
        >
          {requisiteFields.contact}
          {entities.length > 0 ? <LegalEntityField entities={entities} /> : requisiteFields.company}
          {addresses && addresses.length > 0 && (
            <Form.Item label="Сохранённый адрес" htmlFor="checkout-saved-address">
              <Select
                id="checkout-saved-address"
                placeholder="Выберите адрес из профиля"
                options={addresses.map((address) => ({ value: address.id, label: formatAddress(address) }))}
                onChange={pickAddress}
              />
            </Form.Item>
          )}
          <Form.Item label="Адрес доставки" name="address" required>
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 6 }}
              autoComplete="street-address"
              maxLength={LIMITS.addressMax}
            />
          </Form.Item>
          <Form.Item name="saveRequisites" valuePropName="checked">
            <Checkbox>Сохранить реквизиты для следующих заказов</Checkbox>
          </Form.Item>
          {alert && (
            <Alert type="error" showIcon title={alert.title} description={alert.detail} style={{ marginBottom: 16 }} />
          )}
          <Button type="primary" htmlType="submit" size="large" block disabled={sending}>
            {sending ? 'Оформление...' : 'Оформить заказ'}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
