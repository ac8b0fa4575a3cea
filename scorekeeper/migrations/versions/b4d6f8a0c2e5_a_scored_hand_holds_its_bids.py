"""a scored hand holds its bids and loads

Revision ID: b4d6f8a0c2e5
Revises: e7b9d2f4a6c8
Create Date: 2026-11-30 05:50:00

A Skull King hand's bids and cannon loads are the table's secret entries, hidden and revealed
together; once the hand is scored its play holds them too (each entry's `bid` and `shot`), so a
closed play says all it scored, as every game's closed play does. An open hand's entries hold
none (`null`): its bids and loads stay the table's secret entries alone. The secret entries stay.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b4d6f8a0c2e5'
down_revision = 'e7b9d2f4a6c8'
branch_labels = None
depends_on = None

play = sa.table('play', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer), sa.column('number', sa.Integer),
                sa.column('data', sa.JSON), sa.column('closed', sa.Boolean))
secret_entry = sa.table('secret_entry', sa.column('game_id', sa.Integer), sa.column('play', sa.Integer),
                        sa.column('seat', sa.Integer), sa.column('name', sa.String), sa.column('value', sa.JSON))
game = sa.table('game', sa.column('id', sa.Integer), sa.column('kind', sa.String))

SKULL_KING = 'skull-king'
# The secret entries a scored hand's entries hold, each under its own name.
HELD = ('bid', 'shot')


def _hands(connection):
    """Every Skull King hand: its play's id, game, number, data and whether it is scored (closed)."""
    return connection.execute(
        sa.select(play.c.id, play.c.game_id, play.c.number, play.c.data, play.c.closed)
        .join(game, game.c.id == play.c.game_id).where(game.c.kind == SKULL_KING).order_by(play.c.id)).all()


def upgrade():
    connection = op.get_bind()
    kept = {(r.game_id, r.play, r.seat, r.name): r.value for r in connection.execute(
        sa.select(secret_entry.c.game_id, secret_entry.c.play, secret_entry.c.seat, secret_entry.c.name,
                  secret_entry.c.value)
        .join(game, game.c.id == secret_entry.c.game_id).where(game.c.kind == SKULL_KING)).all()}
    for r in _hands(connection):
        entries = [{**entry, **{name: kept.get((r.game_id, r.number, seat, name)) if r.closed else None
                                for name in HELD}}
                   for seat, entry in enumerate(r.data.get('entries', []))]
        connection.execute(sa.update(play).where(play.c.id == r.id).values(data={**r.data, 'entries': entries}))


def downgrade():
    connection = op.get_bind()
    for r in _hands(connection):
        entries = [{key: value for key, value in entry.items() if key not in HELD}
                   for entry in r.data.get('entries', [])]
        connection.execute(sa.update(play).where(play.c.id == r.id).values(data={**r.data, 'entries': entries}))
