import { useEffect, useState, type ComponentType } from 'react';
import type { Banner } from '@shared/api';
import { afterFirstPaint } from '@/components/useAfterFirstPaint';
import { useGetBannersQuery } from './bannersApi';
import { BannerSlide } from './BannerSlide';

type Slider = ComponentType<{ banners: Banner[] }>;

/**
 * The first banner is drawn at once; the carousel's code (react-slick, 13 KB gzip) is requested once
 * the page has been painted (React.lazy would request it during the first render, and an effect may
 * run before the paint: afterFirstPaint) and takes over with the same picture in the same place, as
 * nothing moves before the first slide change 5 s later.
 */
export function BannerCarousel() {
  const { data: banners = [] } = useGetBannersQuery();
  const [BannerSlider, setBannerSlider] = useState<Slider | null>(null);
  useEffect(() => {
    void afterFirstPaint()
      .then(() => import(/* webpackChunkName: "banner-slider" */ './BannerSlider'))
      .then((module) => setBannerSlider(() => module.default));
  }, []);
  if (banners.length === 0) return <div className="banner-placeholder" aria-hidden />;
  return (
    <section className="banner-carousel" aria-label="Акции и новинки">
      {BannerSlider ? <BannerSlider banners={banners} /> : <BannerSlide banner={banners[0]!} index={0} current />}
    </section>
  );
}
