import { ReloadOutlined } from '@ant-design/icons';
import { Alert, App, Button } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { BuyerOrder } from '@shared/api';
import { PAGE_PATHS } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAddManyToCartMutation } from '@/features/cart/cartBulkApi';

type Line = BuyerOrder['lines'][number];

interface RefusedLine {
  line: Line;
  detail: string;
}

const describeLine = (line: Line) => `${line.art} «${line.name}», ${line.color}, ${line.size} см`;

/** The line a refusal names: the bulk call's detail begins «Строка N: …», N counting the sent items from 1. */
function refusedLine(detail: string | undefined, sent: Line[]): Line | undefined {
  const number = /^Строка (\d+)/.exec(detail ?? '');
  return number ? sent[Number(number[1]) - 1] : undefined;
}

/**
 * «Повторить заказ»: the order's lines go into the cart in one all-or-nothing request. The server
 * refuses the whole request for one line (a product no longer on sale, a variant gone); the buyer is
 * told which and asked once whether to add the rest, after which any further refused line is left
 * out too. The lines left out stay listed on the page; the toast links to the cart.
 */
export function RepeatOrder({ order, userId }: { order: BuyerOrder; userId: number }) {
  const [addLines, { isLoading }] = useAddManyToCartMutation();
  const { message, modal } = App.useApp();
  const [leftOut, setLeftOut] = useState<RefusedLine[]>([]);

  const repeat = async () => {
    setLeftOut([]);
    let lines = order.lines;
    const refused: RefusedLine[] = [];
    for (;;) {
      const result = await addLines({
        user_id: userId,
        items: lines.map((line) => ({
          product_id: line.product_id,
          variant_id: line.variant_id,
          count: line.quantity,
        })),
      });
      if (!('error' in result)) break;
      const detail = serverErrorDetail(result.error);
      const line = refusedLine(detail, lines);
      if (!line) {
        void message.error(detail ?? 'Не удалось добавить товары в корзину. Попробуйте ещё раз.');
        return;
      }
      // The number is the request's, not one the buyer sees: the line is named instead.
      const reason = detail!.replace(/^Строка \d+:\s*/, '');
      refused.push({ line, detail: reason });
      lines = lines.filter((candidate) => candidate !== line);
      setLeftOut([...refused]);
      if (lines.length === 0) {
        void message.error('Ни один товар этого заказа сейчас нельзя добавить в корзину');
        return;
      }
      if (refused.length === 1) {
        const addRest = await modal.confirm({
          title: 'Не все товары можно добавить',
          content: `Не добавлен: ${describeLine(line)}. ${reason}`,
          okText: `Добавить остальные (${lines.length})`,
          cancelText: 'Отмена',
        });
        if (!addRest) return;
      }
    }
    void message.success({
      content: (
        <>
          {refused.length === 0 ? 'Товары заказа добавлены в корзину.' : 'Остальные товары заказа добавлены в корзину.'}{' '}
          <Link to={PAGE_PATHS.cart}>Перейти в корзину</Link>
        </>
      ),
    });
  };

  return (
    <>
      <Button type="primary" icon={<ReloadOutlined aria-hidden />} loading={isLoading} onClick={repeat}>
        Повторить заказ
      </Button>
      {leftOut.length > 0 && (
        <Alert
          className="order-left-out"
          type="warning"
          showIcon
          closable
          onClose={() => setLeftOut([])}
          title="Не добавлены в корзину"
          description={
            <ul>
              {leftOut.map(({ line, detail }) => (
                <li key={line.variant_id}>
                  {describeLine(line)}: {detail}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </>
  );
}
