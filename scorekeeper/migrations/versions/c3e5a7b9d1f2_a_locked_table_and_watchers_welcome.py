"""a locked table and watchers welcome

Revision ID: c3e5a7b9d1f2
Revises: a6f3c1d8e2b4
Create Date: 2026-11-29 20:00:00

The host locks the table once everyone sits (no new phone takes a free seat; a lost phone
still asks for its own) and chooses whether anyone with the link may watch. Every game
stored before is open, watchers welcome.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3e5a7b9d1f2'
down_revision = 'a6f3c1d8e2b4'
branch_labels = None
depends_on = None


# Added and dropped in place (SQLite has both since 3.35): a batch operation would copy the game table and drop the
# old one, and with foreign keys on, dropping it deletes every game's seats, plays and secrets with it.
def upgrade():
    op.add_column('game', sa.Column('locked', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('game', sa.Column('watchers', sa.Boolean(), server_default=sa.true(), nullable=False))


def downgrade():
    op.drop_column('game', 'watchers')
    op.drop_column('game', 'locked')
