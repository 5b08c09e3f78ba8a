import { DownloadOutlined, FileExcelOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { App, Button, Flex } from 'antd';
import type { ReactNode } from 'react';
import type { CartExportFormat } from '@shared/cart-import';
import { marketplaceKitPaths } from '@shared/marketplace-kit';
import { PAGE_PATHS } from '@shared/paths';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { ButtonLink } from '@/components/ButtonLink';
import { MarketplaceKitButton } from '@/components/MarketplaceKitButton';
import { useExportCartMutation } from './cartExportApi';

const EXPORTS: { format: CartExportFormat; label: string; icon: ReactNode }[] = [
  { format: 'xlsx', label: 'Скачать в Excel', icon: <FileExcelOutlined aria-hidden /> },
  { format: 'csv', label: 'Скачать CSV', icon: <DownloadOutlined aria-hidden /> },
];

/** The way to the quick-order page, from the cart and from its empty state. */
export function QuickOrderLink() {
  return (
    <ButtonLink icon={<ThunderboltOutlined aria-hidden />} to={PAGE_PATHS.quickOrder}>
      Быстрый заказ
    </ButtonLink>
  );
}

/** «Быстрый заказ», the cart's export (whose file the quick order reads back) and the marketplace kit. */
export function CartActions({ userId }: { userId: number }) {
  const { message } = App.useApp();
  const [exportCart, { isLoading, originalArgs }] = useExportCartMutation();

  const download = async (format: CartExportFormat) => {
    const result = await exportCart({ userId, format });
    if ('error' in result) {
      void message.error(serverErrorDetail(result.error) ?? 'Не удалось скачать корзину. Попробуйте ещё раз.');
    }
  };

  return (
    <Flex gap="small" wrap className="cart-actions">
      <QuickOrderLink />
      {EXPORTS.map(({ format, label, icon }) => (
        <Button
          key={format}
          icon={icon}
          loading={isLoading && originalArgs?.format === format}
          onClick={() => download(format)}
        >
          {label}
        </Button>
      ))}
      <MarketplaceKitButton path={marketplaceKitPaths.cart(userId)} />
    </Flex>
  );
}
