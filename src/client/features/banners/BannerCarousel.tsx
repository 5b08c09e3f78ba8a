import { lazy, Suspense } from 'react';
import { useGetBannersQuery } from './bannersApi';
import { BannerSlide } from './BannerSlide';

// The first banner is drawn at once; the carousel's code (react-slick, 13 KB gzip) follows it, as
// nothing moves before the first slide change 5 s later. Its first slide is the same picture in the
// same place, so nothing shifts when it takes over.
const BannerSlider = lazy(() => import(/* webpackChunkName: "banner-slider" */ './BannerSlider'));

export function BannerCarousel() {
  const { data: banners = [] } = useGetBannersQuery();
  if (banners.length === 0) return <div className="banner-placeholder" aria-hidden />;
  return (
    <section className="banner-carousel" aria-label="Акции и новинки">
      <Suspense fallback={<BannerSlide banner={banners[0]!} index={0} current />}>
        <BannerSlider banners={banners} />
      </Suspense>
    </section>
  );
}
