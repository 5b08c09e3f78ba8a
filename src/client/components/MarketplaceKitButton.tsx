import { ShopOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { API_HOST } from '@/api/config';
import { useCreateDownloadLinkMutation } from '@/api/downloadLinksApi';
import { serverErrorDetail } from '@/api/serverErrorDetail';

/** Hands a URL to the browser's own download: the file streams to disk, never through script memory. */
function downloadNatively(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

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
    downloadNatively(`${API_HOST}${result.data.url.replace(/^\//, '')}`);
  };

  return (
    <Button icon={<ShopOutlined aria-hidden />} loading={isLoading} onClick={download}>
      Карточки для маркетплейсов
    </Button>
  );
}
