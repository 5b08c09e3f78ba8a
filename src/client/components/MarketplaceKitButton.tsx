import { ShopOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useCreateDownloadLinkMutation } from '@/api/downloadLinksApi';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { downloadNatively } from './downloadNatively';

/**
 * «Карточки для маркетплейсов»: the ZIP of the kit at `path` (src/shared/marketplace-kit.ts). The
 * kit can be large, so the browser downloads it itself, by a short-lived signed link asked for
 * first (a plain link would carry no bearer token).
 */
export function MarketplaceKitButton({ path }: { path: string }) {
  const { message } = App.useApp();
  const [createLink, { isLoading }] = useCreateDownloadLinkMutation();

  const download = async () => {
    const result = await createLink(path);
    if ('error' in result) {
      void message.error(serverErrorDetail(result.error) ?? 'Не удалось подготовить карточки. Попробуйте ещё раз.');
      return;
    }
    downloadNatively(result.data.url);
  };

  return (
    <Button icon={<ShopOutlined aria-hidden />} loading={isLoading} onClick={download}>
      Карточки для маркетплейсов
    </Button>
  );
}
