import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Upload } from 'antd';
import { useState } from 'react';
import { imageUrl } from '@shared/api';
import { API_HOST } from '@/api/config';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useUploadImageMutation } from './catalogueAdminApi';
import './catalogueAdmin.css';

/** What the server takes (it recognises the format by content; this only narrows the file dialog). */
const ACCEPTED = '.jpg,.jpeg,.png,.webp,.avif,image/jpeg,image/png,image/webp,image/avif';
const MAX_BYTES = 10 * 1024 * 1024;

interface ImageFieldProps {
  /** The uploaded picture's name (Form.Item gives it, and the id its label points to). */
  value?: string;
  onChange?(name: string): void;
  id?: string;
  /** The preview's alternative text. */
  alt: string;
}

/**
 * A picture for a product or a banner: the file goes to POST /admin/images at once, and the form
 * keeps the name the server gave it; the preview is the server's re-encoded copy.
 */
export function ImageField({ value, onChange, id, alt }: ImageFieldProps) {
  const [upload, { isLoading }] = useUploadImageMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (file: File) => {
    setFailure(null);
    if (file.size > MAX_BYTES) {
      setFailure('Файл больше 10 МБ');
      return;
    }
    try {
      const { name } = await upload(file).unwrap();
      onChange?.(name);
    } catch (error) {
      setFailure(serverErrorDetail(error) ?? 'Не удалось загрузить картинку');
    }
  };

  return (
    <Flex vertical gap="small" align="start">
      {value && (
        <img className="catalogue-admin-preview" src={imageUrl(API_HOST, value)} alt={alt} width={160} height={160} />
      )}
      <Upload
        id={id}
        accept={ACCEPTED}
        showUploadList={false}
        beforeUpload={(file) => {
          void send(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined aria-hidden />} loading={isLoading}>
          {value ? 'Заменить картинку' : 'Загрузить картинку'}
        </Button>
      </Upload>
      {failure && <Alert type="error" showIcon title={failure} />}
    </Flex>
  );
}
