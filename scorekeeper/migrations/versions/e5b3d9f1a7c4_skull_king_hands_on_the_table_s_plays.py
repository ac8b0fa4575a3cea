"""Skull King's hands on the table's plays: one track for every game

Revision ID: e5b3d9f1a7c4
Revises: c7d1e9a3b5f2
Create Date: 2026-11-26 09:45:00

Skull King kept its hands and their entries in tables of its own (`hand`, `entry`); the table
keeps every game's plays (`play`). Each hand becomes one play of its game, numbered as the hand,
its columns and entries in the play's data (as `shelf/skullking/storage.py` reads them), closed
once scored. The bids and loads were the table's secret entries already, and stay there.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5b3d9f1a7c4'
down_revision = 'c7d1e9a3b5f2'
branch_labels = None
depends_on = None

hand = sa.table('hand', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer), sa.column('number', sa.Integer),
                sa.column('cards', sa.Integer), sa.column('lost_tricks', sa.Integer), sa.column('phase', sa.String),
                sa.column('corrected', sa.Boolean), sa.column('cannons', sa.Boolean), sa.column('claimed', sa.JSON))
entry = sa.table('entry', sa.column('hand_id', sa.Integer), sa.column('position', sa.Integer),
                 sa.column('tricks', sa.Integer), sa.column('bonuses', sa.JSON), sa.column('loot_with', sa.JSON),
                 sa.column('wager', sa.Integer), sa.column('bid_changed_from', sa.Integer),
                 sa.column('done', sa.Boolean), sa.column('fixing', sa.Boolean))
play = sa.table('play', sa.column('game_id', sa.Integer), sa.column('number', sa.Integer),
                sa.column('data', sa.JSON), sa.column('closed', sa.Boolean))
game = sa.table('game', sa.column('id', sa.Integer), sa.column('kind', sa.String))

HAND_COLUMNS = ('cards', 'lost_tricks', 'phase', 'corrected', 'cannons', 'claimed')
ENTRY_COLUMNS = ('tricks', 'bonuses', 'loot_with', 'wager', 'bid_changed_from', 'done', 'fixing')


def upgrade():
    connection = op.get_bind()
    entries = {}
    for r in connection.execute(sa.select(entry).order_by(entry.c.hand_id, entry.c.position)).all():
        entries.setdefault(r.hand_id, []).append({
            'tricks': r.tricks, 'bonuses': dict(r.bonuses or {}), 'loot_with': list(r.loot_with or []),
            'wager': r.wager, 'bid_changed_from': r.bid_changed_from, 'done': bool(r.done), 'fixing': bool(r.fixing)})
    plays = [{'game_id': r.game_id, 'number': r.number, 'closed': r.phase == 'scored',
              'data': {'cards': r.cards, 'lost_tricks': r.lost_tricks, 'phase': r.phase, 'corrected': bool(r.corrected),
                       'cannons': bool(r.cannons), 'claimed': list(r.claimed or []), 'entries': entries.get(r.id, [])}}
             for r in connection.execute(sa.select(hand).order_by(hand.c.game_id, hand.c.number)).all()]
    if plays:
        connection.execute(sa.insert(play), plays)
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_hand_id'))
    op.drop_table('entry')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_game_id'))
    op.drop_table('hand')


def downgrade():
    op.create_table('hand',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('cards', sa.Integer(), nullable=False),
    sa.Column('lost_tricks', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=12), nullable=False),
    sa.Column('corrected', sa.Boolean(), nullable=False),
    sa.Column('cannons', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('claimed', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number')
    )
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_game_id'), ['game_id'], unique=False)
    op.create_table('entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('tricks', sa.Integer(), nullable=True),
    sa.Column('bonuses', sa.JSON(), nullable=False),
    sa.Column('loot_with', sa.JSON(), nullable=False),
    sa.Column('wager', sa.Integer(), nullable=True),
    sa.Column('bid_changed_from', sa.Integer(), nullable=True),
    sa.Column('done', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('fixing', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hand.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hand_id', 'position')
    )
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_hand_id'), ['hand_id'], unique=False)

    connection = op.get_bind()
    found = connection.execute(
        sa.select(play.c.game_id, play.c.number, play.c.data).join(game, game.c.id == play.c.game_id)
        .where(game.c.kind == 'skull-king').order_by(play.c.game_id, play.c.number)).all()
    for r in found:
        data = r.data
        hand_id = connection.execute(sa.insert(hand).values(
            game_id=r.game_id, number=r.number, **{column: data.get(column) for column in HAND_COLUMNS})
            .returning(hand.c.id)).scalar_one()
        rows = [{'hand_id': hand_id, 'position': position, **{column: e.get(column) for column in ENTRY_COLUMNS}}
                for position, e in enumerate(data.get('entries', []))]
        if rows:
            connection.execute(sa.insert(entry), rows)
    connection.execute(sa.delete(play).where(play.c.game_id.in_(
        sa.select(game.c.id).where(game.c.kind == 'skull-king'))))
