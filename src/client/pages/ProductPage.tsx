// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-product.generated.css';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { useGetProductByArtQuery } from '@/features/catalogue/catalogueApi';
import { ProductDetails } from '@/features/product/ProductDetails';

export default function ProductPage() {
  const { art = '' } = useParams();
  const navigate = useNavigate();
  const { data: product, isError } = useGetProductByArtQuery(art);

  // SPEC §2: any load failure goes to the 404 page.
  useEffect(() => {
    if (isError) navigate('/404', { replace: true });
  }, [isError, navigate]);

  const shown = product?.art === art ? product : undefined;
  return (
    <>
      <PageTitle name={shown?.name ?? 'Товар'} />
      {/* Keyed by article: another product starts again from its first variant and quantity 1. */}
      {shown ? <ProductDetails key={shown.art} product={shown} /> : <PageLoading />}
    </>
  );
}
