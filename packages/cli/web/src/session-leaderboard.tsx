import type { SessionDocument } from './types.js';

/**
 * The session's aggregate ranking of its members, as `council ask` prints it: rank, member, the normalised Borda
 * score (0 last … 1 first), the mean Borda points, the ballots that ranked it and those that ranked it first.
 */
export function SessionLeaderboard({ session }: { session: SessionDocument }) {
  if (session.leaderboard.length === 0)
    return <p class="muted">Not ranked{session.warnings[0] ? `: ${session.warnings[0]}` : '.'}</p>;
  const modelOf = new Map(session.stage1.map((a) => [a.member, a.model]));
  return (
    <div class="table-scroll">
      <table class="session-leaderboard">
        <caption>The reviewers' rankings combined (Borda count)</caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Member</th>
            <th scope="col" class="num">
              Borda score
            </th>
            <th scope="col" class="num">
              Points
            </th>
            <th scope="col" class="num">
              Votes
            </th>
            <th scope="col" class="num">
              Wins
            </th>
          </tr>
        </thead>
        <tbody>
          {session.leaderboard.map((e) => {
            const model = modelOf.get(e.candidate);
            return (
              <tr key={e.candidate}>
                <td>{e.finalRank}</td>
                <th scope="row">
                  {e.candidate}
                  {model && model !== e.candidate && <span class="muted"> ({model})</span>}
                </th>
                <td class="num">{e.bordaScore.toFixed(3)}</td>
                <td class="num">{e.bordaPoints === undefined ? '–' : e.bordaPoints.toFixed(2)}</td>
                <td class="num">{e.voteCount ?? '–'}</td>
                <td class="num">{e.winCount}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
