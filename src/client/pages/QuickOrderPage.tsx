// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import '../theme/antd-quickOrder.generated.css';
import { Typography } from 'antd';
import { PageTitle } from '@/components/PageTitle';
import { QuickOrder } from '@/features/quickOrder/QuickOrder';

/** /quick-order: many lines into the cart at once, pasted or from a spreadsheet. */
export default function QuickOrderPage() {
  return (
    <>
      <PageTitle name="Быстрый заказ" />
      <Typography.Title>Быстрый заказ</Typography.Title>
      <QuickOrder />
    </>
  );
}
