export interface ReviewItem {
  reviewer: string;
  model: string;
  ranking: string[];
  failure?: string | null;
}

/** Stage-2 reviews: each reviewer's ranking, best first. */
export function ReviewList({ reviews, anonymous }: { reviews: ReviewItem[]; anonymous: boolean }) {
  if (reviews.length === 0) return <p class="muted">No reviews yet.</p>;
  return (
    <>
      {anonymous && <p class="muted small">Labels stay anonymous until the session ends.</p>}
      <ul class="reviews">
        {reviews.map((r, i) => (
          <li key={`${r.reviewer}-${i}`} class="review">
            <span class="review-by">{r.reviewer}</span>{' '}
            {r.failure ? (
              <span class="muted">{r.failure}</span>
            ) : (
              <ol class="ranking">
                {r.ranking.map((label) => (
                  <li key={label}>{label}</li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
