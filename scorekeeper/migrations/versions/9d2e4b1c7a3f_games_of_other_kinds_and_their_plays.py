"""games of other kinds (Skip-Bo, Dracula) and their plays

Revision ID: 9d2e4b1c7a3f
Revises: 6c1f0a7d2b9e
Create Date: 2026-11-23 18:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9d2e4b1c7a3f'
down_revision = '6c1f0a7d2b9e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=16), nullable=False, server_default='skull-king'))
    op.create_table('play',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('closed', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number')
    )
    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_play_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('play', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_play_game_id'))
    op.drop_table('play')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('kind')
