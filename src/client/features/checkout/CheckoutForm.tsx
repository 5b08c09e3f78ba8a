import { Alert, Button, Card, Checkbox, Form, Input, Select, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, type Product, type Variant } from '@shared/api';
import { MESSAGES } from '@shared/messages';
import { formatRubles } from '@shared/money';
import { PAGE_PATHS, type CheckoutItem } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/hooks/reduxHooks';
import { PageLoading } from '@/components/PageLoading';
import { useGetAddressesQuery } from '@/features/addresses/addressesApi';
import { formatAddress } from '@/features/addresses/formatAddress';
import { useGetProductsByArtsQuery } from '@/features/catalogue/catalogueApi';
import { useCreateOrderMutation } from '@/features/orders/ordersApi';
import { useGetRequisitesQuery, useSaveRequisitesMutation } from '@/features/requisites/requisitesApi';
import { blankToNull, requisitesOf } from '@/features/requisites/requisitesValues';
import { selectUser } from '@/features/session/sessionSlice';
import { BackToCart } from './BackToCart';
import { useCheckoutDraft, type CheckoutFields } from './checkoutDraft';

interface Line {
  item: CheckoutItem;
  product: Product;
  variant: Variant;
}

type Lines = { lines: Line[] } | { missing: string };

function resolveLines(items: CheckoutItem[], products: Product[]): Lines {
  const lines: Line[] = [];
  for (const item of items) {
    const product = products.find((candidate) => candidate.art === item.art);
    const variant = product?.variants.find((candidate) => candidate.id === item.variantId);
    if (!product || !variant)
      return { missing: `Не удалось найти вариант с id=${item.variantId} для продукта ${item.art}` };
    lines.push({ item, product, variant });
  }
  return { lines };
}

/** RTK Query's status for a request that got no answer at all (offline, connection reset). */
const noAnswer = (failure: unknown) => (failure as { status?: unknown } | null)?.status === 'FETCH_ERROR';

const OFFLINE_DETAIL =
  'Нет связи с сервером. Введённые данные сохранены: отправьте заказ ещё раз, когда связь вернётся.';

/**
 * The checkout: the lines, the buyer's details (`requisiteFields`, composed by the page) and the
 * delivery address. What is typed lives in a sessionStorage draft with its Idempotency-Key.
 */
export function CheckoutForm({ items, requisiteFields }: { items: CheckoutItem[]; requisiteFields: ReactNode }) {
  const user = useAppSelector(selectUser)!;
  const navigate = useNavigate();
  const [form] = Form.useForm<CheckoutFields>();
  const [alert, setAlert] = useState<{ title: string; detail?: string } | null>(null);
  const draft = useCheckoutDraft(items);
  const arts = [...new Set(items.map((item) => item.art))];
  const { data: products, isLoading } = useGetProductsByArtsQuery(arts);
  const requisites = useGetRequisitesQuery(user.id);
  const { data: addresses } = useGetAddressesQuery(user.id);
  const [createOrder, { isLoading: sending }] = useCreateOrderMutation();
  const [saveRequisites] = useSaveRequisitesMutation();

  // The form opens with the saved details in it, so they wait for the lines.
  if (isLoading || requisites.isLoading) {
    return (
      <div>
        <Typography.Paragraph>Загрузка товаров...</Typography.Paragraph>
        <PageLoading />
      </div>
    );
  }
  // Lines once loaded stay on screen when a later refetch fails (an order's failure refetches them,
  // offline too). The old checkout waited on 'Загрузка товаров...' for ever here; see docs/decisions.md.
  if (!products) return <BackToCart title="Не удалось загрузить товары заказа" />;
  const resolved = resolveLines(items, products);
  if ('missing' in resolved) return <BackToCart title={resolved.missing} />;
  const { lines } = resolved;
  const totalKopecks = lines.reduce((sum, line) => sum + Math.round(line.variant.price * 100) * line.item.count, 0);

  const submit = async (fields: CheckoutFields) => {
    setAlert(null);
    const address = blankToNull(fields.address);
    const details = requisitesOf(fields);
    if (!details.contact_name || !details.contact_phone || !address) {
      setAlert({ title: MESSAGES.checkoutRequired });
      return;
    }
    let orderId: number;
    try {
      const order = {
        user_id: user.id,
        address,
        items: lines.map(({ item, product }) => ({
          product_id: product.id,
          variant_id: item.variantId,
          quantity: item.count,
        })),
        ...details,
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
    // The order is placed whatever becomes of this: the details, checked by the same rules, are a convenience.
    if (fields.saveRequisites) await saveRequisites({ userId: user.id, ...details }).catch(() => undefined);
    navigate(`${PAGE_PATHS.orderSuccess}?order=${orderId}`, { replace: true });
  };

  const pickAddress = (id: number) => {
    const picked = addresses?.find((address) => address.id === id);
    if (!picked) return;
    form.setFieldValue('address', formatAddress(picked));
    draft.keep(form.getFieldsValue(true));
  };

  return (
    <div className="checkout">
      <Card title="Ваш заказ" className="checkout-lines">
        <ul className="checkout-line-list">
          {lines.map(({ item, product, variant }) => (
            <li key={`${item.art}:${item.variantId}`} className="checkout-line">
              <span>
                <span>
                  {product.name} x {item.count}
                </span>
                <Typography.Text type="secondary" className="checkout-line-variant">
                  {variant.color}, {variant.size} см · арт. {product.art} · {formatRubles(variant.price)} / шт.
                </Typography.Text>
              </span>
              <Typography.Text strong>{formatRubles(variant.price * item.count)}</Typography.Text>
            </li>
          ))}
        </ul>
        {/* The page's second heading level (it follows the page's h1), drawn at the fourth's size. */}
        <Typography.Title level={2} className="checkout-total">
          Итого: {formatRubles(totalKopecks / 100)}
        </Typography.Title>
      </Card>
      <Card title="Данные для заказа" className="checkout-form">
        <Form
          form={form}
          layout="vertical"
          // What the buyer typed wins; before they type anything, their saved details.
          initialValues={draft.fields ?? requisites.data ?? {}}
          onFinish={submit}
          onValuesChange={(_changed, values) => {
            setAlert(null);
            draft.keep(values);
          }}
          requiredMark="optional"
        >
          {requisiteFields}
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
