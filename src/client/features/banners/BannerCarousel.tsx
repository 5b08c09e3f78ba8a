import Slider from 'react-slick';
import { Link } from 'react-router';
import { imageUrl, TIMINGS, type Banner } from '@shared/api';
import { API_HOST } from '@/api/config';
import { useGetBannersQuery } from './bannersApi';

function BannerLink({ banner, children }: { banner: Banner; children: React.ReactNode }) {
  const url = banner.url || '#';
  // Shop pages open inside the app; anything else is an ordinary link.
  return url.startsWith('/') ? <Link to={url}>{children}</Link> : <a href={url}>{children}</a>;
}

/** SPEC §2/§9: auto-plays every 5 s with a 500 ms transition, looped, with dots. */
export function BannerCarousel() {
  const { data: banners = [] } = useGetBannersQuery();
  if (banners.length === 0) return <div className="banner-placeholder" aria-hidden />;
  return (
    <section className="banner-carousel" aria-label="Акции и новинки">
      <Slider autoplay autoplaySpeed={TIMINGS.bannerSlideMs} speed={TIMINGS.bannerTransitionMs} infinite dots arrows={false} pauseOnHover>
        {banners.map((banner, index) => (
          <div key={banner.id}>
            <BannerLink banner={banner}>
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
