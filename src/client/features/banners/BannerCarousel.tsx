import { useState } from 'react';
import Slider from 'react-slick';
import { Link } from 'react-router';
import { imageUrl, TIMINGS, type Banner } from '@shared/api';
import { API_HOST } from '@/api/config';
import { useGetBannersQuery } from './bannersApi';

function BannerLink({ banner, current, children }: { banner: Banner; current: boolean; children: React.ReactNode }) {
  const url = banner.url || '#';
  // Only the slide on show can be reached with Tab: the others are hidden from assistive technology.
  const tabIndex = current ? 0 : -1;
  // Shop pages open inside the app; anything else is an ordinary link.
  return url.startsWith('/') ? (
    <Link to={url} tabIndex={tabIndex}>
      {children}
    </Link>
  ) : (
    <a href={url} tabIndex={tabIndex}>
      {children}
    </a>
  );
}

/** SPEC §2/§9: auto-plays every 5 s with a 500 ms transition, looped, with dots. */
export function BannerCarousel() {
  const { data: banners = [] } = useGetBannersQuery();
  const [current, setCurrent] = useState(0);
  if (banners.length === 0) return <div className="banner-placeholder" aria-hidden />;
  return (
    <section className="banner-carousel" aria-label="Акции и новинки">
      {/* fade: looped without cloned slides, whose links screen readers would meet twice. */}
      <Slider
        autoplay
        autoplaySpeed={TIMINGS.bannerSlideMs}
        speed={TIMINGS.bannerTransitionMs}
        infinite
        fade
        dots
        arrows={false}
        pauseOnHover
        beforeChange={(_from, to) => setCurrent(to)}
      >
        {banners.map((banner, index) => (
          <div key={banner.id}>
            <BannerLink banner={banner} current={index === current}>
              <img
                className="banner-image"
                src={imageUrl(API_HOST, banner.image)}
                alt={`Баннер ${index + 1}`}
                width={1200}
                height={400}
                loading={index === 0 ? 'eager' : 'lazy'}
              />
            </BannerLink>
          </div>
        ))}
      </Slider>
    </section>
  );
}
