"""teams in a finished game's summary

Revision ID: a6f3c1d8e2b4
Revises: d4a7c2e9f1b6
Create Date: 2026-11-29 19:40:00

A crew's ratings and head to head take partners as one side: a finished game played in teams
(a Skip-Bo match, a free pad) keeps its teams in its summary, by the players' places, as its
options have them.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a6f3c1d8e2b4'
down_revision = 'd4a7c2e9f1b6'
branch_labels = None
depends_on = None

# The games played in teams when this was written, by the name the database keeps them under.
TEAM_GAMES = ('skip-bo', 'free-pad')

game = sa.table('game', sa.column('id', sa.Integer), sa.column('kind', sa.String),
                sa.column('options', sa.JSON), sa.column('summary', sa.JSON))


def _finished_in_teams(connection):
    """Each finished game of the team games: its id, options and summary."""
    return connection.execute(sa.select(game.c.id, game.c.options, game.c.summary)
                              .where(game.c.kind.in_(TEAM_GAMES), game.c.summary.is_not(None))).all()


def upgrade():
    connection = op.get_bind()
    for id_, options, summary in _finished_in_teams(connection):
        teams = (options or {}).get('teams') or []
        if teams and summary and 'teams' not in summary:
            connection.execute(sa.update(game).where(game.c.id == id_)
                               .values(summary={**summary, 'teams': [list(team) for team in teams]}))


def downgrade():
    connection = op.get_bind()
    for id_, _options, summary in _finished_in_teams(connection):
        if summary and 'teams' in summary:
            connection.execute(sa.update(game).where(game.c.id == id_)
                               .values(summary={k: v for k, v in summary.items() if k != 'teams'}))
